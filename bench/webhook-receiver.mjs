// The webhook receiver of `BENCH_WEBHOOK=1 npm run bench`, run as a child process: an agency's endpoint is
// another machine, so its work (accepting connections, reading bodies) must not run on Placet's event loop, where
// it once cost the ingest ratio about a third of the drop the bench was measuring. Answers 204 to every delivery,
// reports its port once and its delivery count whenever asked, over IPC.
import http from 'node:http';

let deliveries = 0;
const server = http.createServer((req, res) => {
  req.resume().on('end', () => {
    deliveries++;
    res.writeHead(204).end();
  });
});
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', (m) => {
  if (m === 'count') process.send({ deliveries });
  if (m === 'close') server.close(() => process.exit(0));
});
process.on('disconnect', () => process.exit(0));
