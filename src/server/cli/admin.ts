// `npm run admin -- grant <email>` / `revoke <email>`: writes the admins table.
import path from 'node:path';
import { findUserByEmail, grantAdmin, revokeAdmin } from '../admin/queries';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { DataDirLocked, lockDataDir } from '../db/lock';

const [command, email] = process.argv.slice(2);
if (!['grant', 'revoke'].includes(command ?? '') || !email) {
  console.error('usage: npm run admin -- grant <email> | revoke <email>');
  process.exit(2);
}

const config = loadConfig();
let release = () => {};
try {
  if (!config.databaseUrl) release = lockDataDir(config.dataDir, 'npm run admin');
} catch (e) {
  if (e instanceof DataDirLocked) {
    console.error(e.message);
    process.exit(1);
  }
  throw e;
}
const database = await openDatabase({ url: config.databaseUrl, pgliteDir: path.join(config.dataDir, 'db') });
try {
  await database.migrate();
  const account = await findUserByEmail(database.db, email);
  const userId = account?.id;
  if (!account || !userId) {
    console.error(`No account with the email ${email}. Sign up first, then grant.`);
    process.exitCode = 1;
  } else if (command === 'grant' && !account.emailVerified) {
    // Whoever typed an address at sign-up does not own it until its confirmation link is followed.
    console.error(`The email ${email} is not confirmed yet. Follow the link in the confirmation email first, then grant.`);
    process.exitCode = 1;
  } else if (command === 'grant') {
    await grantAdmin(database.db, userId);
    console.log(`${email} is now an admin.`);
  } else {
    const changed = await revokeAdmin(database.db, userId);
    console.log(changed ? `${email} is no longer an admin.` : `${email} was not an admin.`);
  }
} finally {
  await database.close();
  release();
}
