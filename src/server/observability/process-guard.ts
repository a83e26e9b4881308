// What a process does with a promise rejection nobody handled. pg-boss (10.4) records a job's
// completion or failure without awaiting it, so a database restart at that moment rejects where
// no code can catch it, and Node's default ends the process: a worker lost to a passing outage.
// Those are logged and lived through (jobs/queue.ts records completions itself and retries);
// anything else is a bug, logged and the process ended, as by default.
import { isDatabaseUnavailable } from '../db/errors';
import { logger } from './logger';

export function guardUnhandledRejections(exit: (code: number) => void = (code) => process.exit(code)): void {
  process.on('unhandledRejection', (reason) => {
    if (isDatabaseUnavailable(reason)) {
      logger.warn({ err: reason instanceof Error ? reason.message : String(reason) }, 'a call failed while the database was out of reach');
      return;
    }
    logger.fatal({ err: reason }, 'unhandled rejection');
    exit(1);
  });
}
