// PGlite is one process: a second process that opens the same folder writes rows the first
// never sees. Whoever opens the embedded database holds this lock; everyone else fails clearly.
import fs from 'node:fs';
import path from 'node:path';

export class DataDirLocked extends Error {}

/** Is a process with this id running (one of another user's counts)? */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock on `dataDir` for this process; returns a release function. */
export function lockDataDir(dataDir: string, holder: string): () => void {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'db.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(file, 'wx');
      fs.writeSync(fd, JSON.stringify({ pid: process.pid, holder }));
      fs.closeSync(fd);
      const release = () => fs.rmSync(file, { force: true });
      process.once('exit', release);
      return release;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const owner = JSON.parse(fs.readFileSync(file, 'utf8') || '{}') as { pid?: number; holder?: string };
      if (owner.pid && alive(owner.pid)) {
        throw new DataDirLocked(
          `The embedded database in ${dataDir} is in use by ${owner.holder ?? 'another process'} (pid ${owner.pid}). ` +
            'Stop it first, or use DATABASE_URL to run on PostgreSQL, where any number of processes may connect.',
        );
      }
      fs.rmSync(file, { force: true }); // left behind by a process that died
    }
  }
  throw new DataDirLocked(`Could not lock ${dataDir}`);
}
