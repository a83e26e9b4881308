// A database as an older release left it: the migrations up to a given one, in a folder of their
// own, so a test can fill it with that release's rows and then run the rest as an upgrade would.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrationsFolder } from '../../src/server/db/client';

interface Journal {
  entries: Array<{ idx: number; tag: string }>;
}

/** A folder with the migrations up to and including `lastTag`; remove it when done. */
export function migrationsUpTo(lastTag: string): string {
  const journal = JSON.parse(fs.readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as Journal;
  const last = journal.entries.findIndex((e) => e.tag === lastTag);
  if (last < 0) throw new Error(`no migration ${lastTag}`);
  const kept = journal.entries.slice(0, last + 1);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'giot-migrations-'));
  fs.mkdirSync(path.join(dir, 'meta'));
  fs.writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries: kept }));
  for (const e of kept) fs.copyFileSync(path.join(migrationsFolder, `${e.tag}.sql`), path.join(dir, `${e.tag}.sql`));
  return dir;
}
