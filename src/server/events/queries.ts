// The events a visitor may name when registering: the ones the provider runs (not archived),
// by id and name only; nothing about games, teams or footage.
import { and, asc, eq } from 'drizzle-orm';
import { OTHER_EVENT } from '../../common/constants';
import type { Db } from '../db/client';
import { events } from '../db/schema';

export interface RegistrationEventOption {
  id: string;
  name: string;
}

export async function listRegistrationEvents(db: Db): Promise<RegistrationEventOption[]> {
  return db
    .select({ id: events.id, name: events.name })
    .from(events)
    .where(eq(events.isActive, true))
    .orderBy(asc(events.startsOn), asc(events.name));
}

/** Whether the registration may store this event: one the provider runs, or "Other". */
export async function isRegistrationEvent(db: Db, value: string): Promise<boolean> {
  if (value === OTHER_EVENT.value) return true;
  const [row] = await db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.id, value), eq(events.isActive, true)))
    .limit(1);
  return Boolean(row);
}
