// `npm start`: the whole product on its embedded defaults (or on what the environment sets).
import { loadConfig } from './config';
import { lockDataDir } from './db/lock';
import { logger } from './observability/logger';
import { guardUnhandledRejections } from './observability/process-guard';
import { startServer } from './server';

guardUnhandledRejections();

const config = loadConfig();
if (!config.databaseUrl) lockDataDir(config.dataDir, 'the web server');
const server = await startServer(config);
logger.info(
  { url: config.baseUrl, port: server.port, database: server.deps.database.kind, mail: server.deps.mailer.kind === 'smtp' ? 'smtp' : `outbox in ${config.dataDir}/mail`, worker: config.runWorker },
  `Get It On Tape is running on ${config.baseUrl}`,
);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (closing) return;
    closing = true;
    await server.close();
    process.exit(0);
  });
}
