import { buildApp } from './app.js';
import { reloadTls, watchTlsFiles } from './http-server.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { connect } from './db/connect.js';
import { randomIds } from './deps.js';
import { ensureHostingKey } from './features/hosting-auth/hosting-auth.service.js';

/** Milliseconds to finish in-flight requests after SIGTERM/SIGINT before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000;

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }

  const database = connect(config.database);
  const app = await buildApp({ config, database });
  const generated = await ensureHostingKey(database.db, config, randomIds);
  if (generated !== undefined) {
    // Printed once, to stdout, never through the logger: only its hash is stored.
    process.stdout.write(
      `\nA Hosting API key was generated. Store it now; it is not shown again (rotate with npm run hosting-key:rotate):\n${generated}\n\n`,
    );
  }

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const timer = setTimeout(() => {
      app.log.error('shutdown grace period over; exiting');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    timer.unref();
    app
      .close()
      .then(() => database.close())
      .then(() => process.exit(0))
      .catch((err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  const tls = config.tls;
  if (tls !== undefined) {
    const reload = (reason: string) => {
      try {
        reloadTls(app.server, tls);
        app.log.info({ reason }, 'TLS certificate reloaded');
      } catch (err) {
        app.log.error({ err, reason }, 'TLS certificate not reloaded; the previous one stays in use');
      }
    };
    process.on('SIGHUP', () => reload('SIGHUP'));
    const unwatch = watchTlsFiles(tls, () => reload('file changed'));
    app.addHook('onClose', async () => unwatch());
  }

  await app.listen({ port: config.port, host: config.host });
}

main().catch((err: unknown) => {
  process.stderr.write(`Placet failed to start: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
  process.exit(1);
});
