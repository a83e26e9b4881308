// `npm run admin -- grant <email>` / `revoke <email>`: writes the admins table; `erase <email>`
// erases an account and everything it holds (accounts/erasure.ts); `seed-demo` (`npm run seed:demo`)
// adds the sample events (events/demo.ts). On PostgreSQL it
// connects like any process. On the embedded database it opens the data folder when no server
// holds it, and otherwise asks the running server over its local channel (admin/channel.ts); a
// data folder that holds no database is refused (DATA_DIR not set as the server has it), except
// by seed-demo, which may set up a fresh install.
import fs from 'node:fs';
import path from 'node:path';
import { askRunningServer } from '../admin/channel';
import { ADMIN_COMMANDS, COMMANDS_WITHOUT_EMAIL, runAdminCommand, type AdminCommand, type AdminCommandResult } from '../admin/service';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { buildDeps } from '../server';
import { DataDirLocked, lockDataDir } from '../db/lock';
import { noDatabaseIn } from '../admin/service';

const [command, given] = process.argv.slice(2) as [AdminCommand | undefined, string | undefined];
if (!command || !ADMIN_COMMANDS.includes(command) || (!given && !COMMANDS_WITHOUT_EMAIL.includes(command))) {
  console.error('usage: npm run admin -- grant <email> | revoke <email> | erase <email> | reset-second-factor <email>; npm run seed:demo');
  process.exit(2);
}
const email = given ?? '';

const config = loadConfig();

async function direct(): Promise<AdminCommandResult> {
  const database = await openDatabase({ url: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'db') });
  try {
    await database.migrate();
    if (command !== 'erase') return await runAdminCommand({ db: database.db } as Parameters<typeof runAdminCommand>[0], command!, email!);
    // Erasing needs the storage, the mail queue and the live-update bus too: the product's own parts.
    const deps = await buildDeps(config, { database });
    try {
      return await runAdminCommand(deps, command, email!);
    } finally {
      await deps.jobs.stop(1000).catch(() => {});
      await deps.faces.close().catch(() => {});
      await deps.bus.close().catch(() => {});
    }
  } finally {
    await database.close();
  }
}

let result: AdminCommandResult;
if (config.databaseUrl) {
  result = await direct();
} else {
  let release: (() => void) | null = null;
  try {
    release = lockDataDir(config.dataDir, 'npm run admin');
  } catch (e) {
    if (!(e instanceof DataDirLocked)) throw e;
  }
  if (release && command !== 'seed-demo' && !fs.existsSync(path.join(config.dataDir, 'db', 'PG_VERSION'))) {
    // No server holds this folder and it has no database: opening it would make a second, empty
    // one beside the server's, and grant into nothing. (seed:demo sets up a fresh install, so it
    // may make the database, as the server's first start would.)
    release();
    console.error(noDatabaseIn(config.dataDir));
    process.exit(1);
  }
  if (release) {
    try {
      result = await direct();
    } finally {
      release();
    }
  } else {
    // The server holds the embedded database: it runs the command for us.
    const answer = await askRunningServer(config.dataDir, command, email);
    if (!answer) {
      console.error(
        `The embedded database in ${config.dataDir} is in use by another process that does not answer on its admin channel. ` +
          'Stop it first, or use DATABASE_URL to run on PostgreSQL, where any number of processes may connect.',
      );
      process.exit(1);
    }
    result = answer;
  }
}
(result.ok ? console.log : console.error)(result.message);
process.exitCode = result.ok ? 0 : 1;
