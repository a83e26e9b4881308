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
