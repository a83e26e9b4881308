// Making and unmaking admins (`npm run admin -- grant|revoke <email>`), the same rules whichever
// way the command reaches the database (directly, or through the running server's channel).
import { audit } from '../audit/log';
import { endViewAsSessions } from '../auth/impersonation';
import type { Db } from '../db/client';
import { findUserByEmail } from '../auth/accounts';
import { grantAdmin, revokeAdmin } from './queries';

export interface AdminCommandResult {
  ok: boolean;
  message: string;
}

export async function runAdminCommand(db: Db, command: 'grant' | 'revoke', email: string): Promise<AdminCommandResult> {
  const account = await findUserByEmail(db, email);
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
