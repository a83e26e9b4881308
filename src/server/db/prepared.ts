// Hot read queries as named prepared statements: drizzle builds the query once per database handle
// and PostgreSQL parses and plans it once per connection, instead of both on every request. On the
// dashboard's queries this took a one-row select from about 0.56 ms to 0.20 ms (bench/request-path.ts).
import type { Db } from './client';

/**
 * `build(db)` once per database handle (a transaction is a handle of its own), then the same
 * prepared query each time. `build` names its statement with `.prepare(name)`, a name no other
 * statement uses: a connection keeps one text per name.
 */
export function preparedQuery<Q>(build: (db: Db) => Q): (db: Db) => Q {
  const built = new WeakMap<Db, Q>();
  return (db) => {
    let query = built.get(db);
    if (!query) {
      query = build(db);
      built.set(db, query);
    }
    return query;
  };
}
