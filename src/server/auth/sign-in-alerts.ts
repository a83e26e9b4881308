// Tells the owner of an account when it has seen many failed sign-ins, so a guessing attack
// (or a forgotten password) does not go unnoticed. Sent at most once per counting window.
import { findUserIdByEmail } from './accounts';
import type { Db } from '../db/client';
import type { Mailer } from '../mail/mailer';
import { failedSignInsMail } from '../mail/templates';

export async function notifyOwnerOfFailedSignIns(deps: { db: Db; mailer: Mailer; config: { baseUrl: string } }, email: string) {
  if (!(await findUserIdByEmail(deps.db, email))) return;
  await deps.mailer.send(failedSignInsMail(email, `${deps.config.baseUrl}/auth?email=${encodeURIComponent(email)}`));
}
