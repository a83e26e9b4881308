// What the payment tests start from: an approved request, videos waiting for payment, and a way
// to wait for what the job queue does a moment later.
import { eq } from 'drizzle-orm';
import { highlightRequests, orders, paymentEvents, userVideos } from '../../src/server/db/schema';
import type { TestApp } from './app';
import { insertVideo } from './dashboard-fixtures';

let requests = 0;
/** A request of `userId` that an admin has approved (ready_to_purchase), unless told otherwise. */
export async function insertRequest(
  app: TestApp,
  userId: string,
  status: 'pending' | 'ready_to_purchase' | 'delivered' = 'ready_to_purchase',
): Promise<string> {
  requests += 1;
  const [row] = await app.db
    .insert(highlightRequests)
    .values({ userId, status, event: `Spring Classic ${requests}`, games: [] })
    .returning({ id: highlightRequests.id });
  return row!.id;
}

/** A Not Yet Paid video (hidden until payment), for a request or for none. */
export async function insertUnpaidVideo(app: TestApp, userId: string, requestId: string | null = null): Promise<string> {
  const { id } = await insertVideo(app, userId, { isPaid: false, isVisible: false, requestId });
  return id;
}

export async function videoState(app: TestApp, videoId: string): Promise<{ isPaid: boolean; isVisible: boolean }> {
  const [row] = await app.db.select({ isPaid: userVideos.isPaid, isVisible: userVideos.isVisible }).from(userVideos).where(eq(userVideos.id, videoId));
  return row!;
}

export async function ordersOf(app: TestApp, userId: string) {
  return app.db.select().from(orders).where(eq(orders.userId, userId)).orderBy(orders.createdAt);
}

export async function eventsOf(app: TestApp, orderId: string) {
  return app.db.select().from(paymentEvents).where(eq(paymentEvents.orderId, orderId));
}

/** Polls until `check` returns something truthy (the job queue works a moment later). */
export async function eventually<T>(check: () => Promise<T | null | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`still not true after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
