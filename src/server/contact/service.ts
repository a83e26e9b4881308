// A contact message is stored first, then the team is notified and the sender gets an
// auto-reply. If mail fails the message is kept (mail_status = failed) and the caller is told.
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { contactSchema } from '../../common/schemas';
import type { Db } from '../db/client';
import { contactMessages } from '../db/schema';
import type { Mailer } from '../mail/mailer';
import { contactAutoReplyMail, contactNotificationMail, type ContactParams } from '../mail/templates';

export type ContactMessage = z.output<typeof contactSchema>;

export async function submitContactMessage(
  deps: { db: Db; mailer: Mailer },
  input: ContactMessage,
  submittedAt = new Date(),
): Promise<{ id: string; mailed: boolean }> {
  const [row] = await deps.db
    .insert(contactMessages)
    .values({ ...input, phone: input.phone ?? null })
    .returning({ id: contactMessages.id });
  const id = row!.id;
  const params: ContactParams = {
    user_name: `${input.firstName} ${input.lastName}`,
    user_email: input.email,
    user_number: input.phone ?? 'Not provided',
    subject: input.subject,
    message: input.message,
    submitted: submittedAt.toLocaleString('en-US', { timeZone: 'America/Chicago', dateStyle: 'medium', timeStyle: 'short' }),
  };
  try {
    await deps.mailer.send(contactNotificationMail(params));
    await deps.mailer.send(contactAutoReplyMail(params));
    await deps.db.update(contactMessages).set({ mailStatus: 'sent' }).where(eq(contactMessages.id, id));
    return { id, mailed: true };
  } catch (error) {
    console.error('[contact] mail failed for message', id, (error as Error).message);
    await deps.db.update(contactMessages).set({ mailStatus: 'failed' }).where(eq(contactMessages.id, id));
    return { id, mailed: false };
  }
}
