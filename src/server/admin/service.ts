// Making and unmaking admins (`npm run admin -- grant|revoke <email>`) and erasing an account
// (`erase <email>`) and adding the demo events (`npm run seed:demo`), the same rules whichever way the command reaches the database (directly, or
// through the running server's channel).
import { eraseAccount } from '../accounts/erasure';
import { audit } from '../audit/log';
import { endViewAsSessions } from '../auth/impersonation';
import { eq } from 'drizzle-orm';
import { session, twoFactor, user } from '../db/schema';
import type { AppDeps } from '../deps';
import { findUserByEmail } from '../auth/accounts';
import { grantAdmin, revokeAdmin } from './queries';
import { seedDemoEvents } from '../events/demo';

export interface AdminCommandResult {
  ok: boolean;
  message: string;
}

export type AdminCommand = 'grant' | 'revoke' | 'erase' | 'reset-second-factor' | 'seed-demo';
export const ADMIN_COMMANDS: readonly AdminCommand[] = ['grant', 'revoke', 'erase', 'reset-second-factor', 'seed-demo'];
/** The commands that act on the product as a whole, not on one account. */
export const COMMANDS_WITHOUT_EMAIL: readonly AdminCommand[] = ['seed-demo'];

/** The admin command's answer for a data folder without a database: the server's DATA_DIR was not given. */
export const noDatabaseIn = (dataDir: string) =>
  `There is no database in ${dataDir}. Run this with DATA_DIR set as the server has it (the folder the server was started with; ./data by default), ` +
  'or start the server once there to create the database. Nothing was changed.';

export async function runAdminCommand(deps: Pick<AppDeps, 'db' | 'storage' | 'mailer' | 'bus'>, command: AdminCommand, email: string): Promise<AdminCommandResult> {
  const { db } = deps;
  if (command === 'seed-demo') {
    const added = await seedDemoEvents(db);
    return {
      ok: true,
      message: added.length
        ? `Added the demo events (sample data for trying the product, not real events): ${added.join(', ')}.`
        : 'The demo events are already there; nothing was added.',
    };
  }
  const account = await findUserByEmail(db, email);
  if (command === 'erase') {
    if (!account) return { ok: false, message: `No account with the email ${email}.` };
    const outcome = await eraseAccount(deps, account.id, { kind: 'command line' });
    if (outcome.erased) return { ok: true, message: `The account of ${email} is erased, with everything it held; a mail says so to the address.` };
    return { ok: false, message: outcome.reason === 'admin' ? `${email} is an admin: revoke first (npm run admin -- revoke ${email}), then erase.` : `No account with the email ${email}.` };
  }
  if (command === 'reset-second-factor') {
    // For an admin who lost the phone and the recovery codes: the factor goes, every session
    // ends, and the next sign-in asks to enrol a new one (which mails the admin).
    if (!account) return { ok: false, message: `No account with the email ${email}.` };
    await db.transaction(async (tx) => {
      await tx.delete(twoFactor).where(eq(twoFactor.userId, account.id));
      await tx.update(user).set({ twoFactorEnabled: false }).where(eq(user.id, account.id));
      await tx.delete(session).where(eq(session.userId, account.id));
    });
    await audit(db, { actorId: null, action: 'admin.reset-second-factor', subjectUserId: account.id, details: { via: 'command line' } });
    return { ok: true, message: `${email} has no second factor now and is signed out everywhere; the next sign-in asks to set up a new one.` };
  }
  if (!account) return { ok: false, message: `No account with the email ${email}. Sign up first, then grant.` };
  if (command === 'grant') {
    // Whoever typed an address at sign-up does not own it until its confirmation link is followed.
    if (!account.emailVerified) {
      return { ok: false, message: `The email ${email} is not confirmed yet. Follow the link in the confirmation email first, then grant.` };
    }
    await grantAdmin(db, account.id);
    await audit(db, { actorId: null, action: 'admin.grant', subjectUserId: account.id, details: { via: 'command line' } });
    return { ok: true, message: `${email} is now an admin.` };
  }
  const changed = await revokeAdmin(db, account.id);
  if (changed) await audit(db, { actorId: null, action: 'admin.revoke', subjectUserId: account.id, details: { via: 'command line' } });
  // Every "View as User" session the admin has open ends with their role (requireUser also
  // refuses one whose admin is no longer active, whatever path made the row inactive).
  await endViewAsSessions(db, { adminId: account.id }, 'admin revoked');
  return { ok: true, message: changed ? `${email} is no longer an admin.` : `${email} was not an admin.` };
}
