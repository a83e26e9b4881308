// `npm run worker`: the background jobs alone, no HTTP. Run as many as needed on PostgreSQL
// (DATABASE_URL): they share the queue with the API servers (start those with RUN_WORKER=0 to
// keep media work off them). The embedded database is one process only: there, `npm start` runs
// the worker itself.
import { loadConfig } from './config';
import { startWorker, stopWorker } from './background';
import { logger } from './observability/logger';
import { guardUnhandledRejections } from './observability/process-guard';
import { buildDeps } from './server';

guardUnhandledRejections();

const config = loadConfig({ runWorker: true });
if (!config.databaseUrl) {
  console.error(
    'npm run worker needs PostgreSQL (DATABASE_URL): the embedded database belongs to one process, and `npm start` already runs the worker in it.',
  );
  process.exit(2);
}
const deps = await buildDeps(config);
await startWorker(deps);
logger.info({ workerId: deps.jobs.workerId }, 'Get It On Tape worker is taking jobs');

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (closing) return;
    closing = true;
    await stopWorker(deps);
    await deps.bus.close();
    await deps.database.close();
    process.exit(0);
  });
}
