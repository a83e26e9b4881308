// Recognising database errors the same way on PGlite and node-postgres (Drizzle may wrap them).

/** The SQLSTATE of a database error (PGlite and node-postgres alike), if it is one. */
export function pgCode(error: unknown): string | undefined {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code ?? e?.cause?.code;
}

/** A unique constraint or unique index refused the write. */
export function isUniqueViolation(error: unknown): boolean {
  return pgCode(error) === '23505';
}

/** Ids of our own rows are UUIDs; anything else cannot name one (and must not reach a uuid column). */
export function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}

/** Errors of a database that cannot be reached right now (restarting, failing over, gone). */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006']);
const UNREACHABLE_TEXT = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down)/i;

/** The database is out of reach, not the query wrong: the caller may try again shortly. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e = error as { code?: string; message?: string; cause?: unknown } | null, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if ((e.code && UNREACHABLE_CODES.has(e.code)) || (e.message && UNREACHABLE_TEXT.test(e.message))) return true;
  }
  return false;
}
