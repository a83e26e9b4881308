// The server's log: one JSON object per line (pino), so an operator's log system can search by
// request id, route, status, job id. Readable lines in a terminal (LOG_FORMAT=pretty, the
// default when stdout is a terminal). LOG_LEVEL sets how much (default info; tests: warn).
import pino, { type Logger } from 'pino';
import pretty from 'pino-pretty';

function createLogger(): Logger {
  const level = process.env.LOG_LEVEL ?? (process.env.VITEST ? 'warn' : 'info');
  const format = process.env.LOG_FORMAT ?? (process.stdout.isTTY ? 'pretty' : 'json');
  const options = { level, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime };
  // Synchronous in both forms: a line written just before a crash is not lost.
  return format === 'pretty' ? pino(options, pretty({ sync: true, translateTime: 'HH:MM:ss.l', ignore: 'pid' })) : pino(options, pino.destination({ sync: true }));
}

export const logger = createLogger();
