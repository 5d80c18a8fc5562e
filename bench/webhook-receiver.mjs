// The webhook receiver of `BENCH_WEBHOOK=1 npm run bench`, run as a child process: an agency's endpoint is
// another machine, so its work (accepting connections, reading bodies) must not run on Placet's event loop, where
// it once cost the ingest ratio about a third of the drop the bench was measuring. Answers 204 to every delivery,
// reports its port once and, whenever asked, how many deliveries and consent records (a delivery carries a run
// of them, docs/webhooks.md "Payload") it received, over IPC.
import { Buffer } from 'node:buffer';
import http from 'node:http';

let deliveries = 0;
let records = 0;
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    deliveries++;
    const event = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    records += event.type === 'consent.recorded' ? event.data.events.length : 0;
    res.writeHead(204).end();
  });
});
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', (m) => {
  if (m === 'count') process.send({ deliveries, records });
  if (m === 'close') server.close(() => process.exit(0));
});
process.on('disconnect', () => process.exit(0));
