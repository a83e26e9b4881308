// Mail while the mail server is away or refusing (mail/mailer.ts, jobs/queue.ts): the pause
// between tries grows to a ceiling and no further; the first retried mail that goes through brings
// every held one forward; a message refused for good fails at once, is listed for the admins, and
// goes out once when they run it again.
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../src/server/db/client';
import { startTestApp, uniqueEmail, type TestApp } from '../support/app';
import { jobsOf, type JobRow } from '../support/jobs';
import { settle } from '../support/http';

let app: TestApp;
beforeAll(async () => {
  // Pauses of 1 s doubling, with a ceiling of 4 s: the third failure reaches it.
  app = await startTestApp({ mailRetryDelaySeconds: 1, mailRetryDelayMaxSeconds: 4 });
});
afterEach(() => {
  app.smtp.setFailing(false);
  app.smtp.setRefusing(false);
});
afterAll(async () => {
  await app?.close();
});

const send = (to: string, subject: string) => app.server.deps.mailer.send({ to, subject, text: `${subject}, in full.` });
const jobTo = async (to: string): Promise<JobRow | undefined> => (await jobsOf(app, 'mail.deliver')).find((j) => j.data.to === to);
const received = (to: string) => app.smtp.mails.filter((m) => m.to.includes(to));

interface Pause {
  retry_count: number;
  retry_backoff: boolean;
  retry_delay: number;
  /** Seconds from now to the job's next try. */
  next_in: number;
}
const pauseOf = async (id: string): Promise<Pause> =>
  (
    await queryRows<Pause>(
      app.db,
      sql`SELECT retry_count, retry_backoff, retry_delay, extract(epoch FROM start_after - now())::float AS next_in FROM pgboss.job WHERE id = ${id}`,
    )
  )[0]!;

describe('mail while the mail server is away', () => {
  it('the pause between tries doubles up to its ceiling and stays there, and the mail goes out once the server is back', async () => {
    const to = uniqueEmail('ceiling');
    app.smtp.setFailing(true);
    await send(to, 'Held by a busy server');
    await expect.poll(async () => (await jobTo(to))?.state, { timeout: 10_000 }).toBe('retry');
    const id = (await jobTo(to))!.id;
    // Under the ceiling, pg-boss's own doubling pause (the count goes up when the retry starts).
    const early = await pauseOf(id);
    expect(early).toMatchObject({ retry_count: 0, retry_backoff: true, retry_delay: 1 });
    expect(early.next_in).toBeLessThanOrEqual(2);
    expect((await jobTo(to))!.output?.message).toMatch(/421|Service not available/);
    // The third failure would pause up to 8 s: the pause is fixed between 2 and 4 s instead.
    await expect.poll(async () => (await pauseOf(id)).retry_backoff, { timeout: 40_000, interval: 200 }).toBe(false);
    await expect.poll(async () => (await jobTo(to))?.state, { timeout: 5_000, interval: 100 }).toBe('retry');
    const capped = await pauseOf(id);
    expect(capped.retry_count).toBe(2);
    expect(capped.retry_delay).toBeGreaterThanOrEqual(2);
    expect(capped.retry_delay).toBeLessThanOrEqual(4);
    expect(capped.next_in).toBeLessThanOrEqual(4);
    // Later failures keep it.
    await expect.poll(async () => (await pauseOf(id)).retry_count, { timeout: 40_000, interval: 200 }).toBeGreaterThanOrEqual(4);
    expect(await pauseOf(id)).toMatchObject({ retry_backoff: false, retry_delay: capped.retry_delay });
    expect(received(to)).toHaveLength(0);

    app.smtp.setFailing(false);
    await app.smtp.waitFor(to, 'Held by a busy server', 20_000);
    await expect.poll(async () => (await jobTo(to))?.state, { timeout: 10_000 }).toBe('completed');
    expect(received(to)).toHaveLength(1);
    // Five failed tries with their pauses (about 15 s), longer on a loaded machine: as long as the polls above allow.
  }, 150_000);

  it('the first retried mail that goes through brings the held ones forward: they go out at once, each once', async () => {
    const soon = uniqueEmail('soon');
    const later = [uniqueEmail('later-a'), uniqueEmail('later-b')];
    app.smtp.setFailing(true);
    for (const to of [soon, ...later]) await send(to, 'Held');
    for (const to of [soon, ...later]) await expect.poll(async () => (await jobTo(to))?.state, { timeout: 10_000 }).toBe('retry');
    // Two of them held for an hour, as a long outage leaves them; one due now.
    for (const to of later) {
      const { id } = (await jobTo(to))!;
      await app.db.execute(sql`UPDATE pgboss.job SET start_after = now() + interval '1 hour' WHERE id = ${id}`);
    }
    app.smtp.setFailing(false);
    for (const to of [soon, ...later]) await app.smtp.waitFor(to, 'Held', 20_000);
    for (const to of [soon, ...later]) await expect.poll(async () => (await jobTo(to))?.state, { timeout: 10_000 }).toBe('completed');
    await settle(300);
    for (const to of [soon, ...later]) expect(received(to), to).toHaveLength(1);
  });

  it('a message the server refuses for good (550) fails at once without retries, is listed for the admins, and goes out once when run again', async () => {
    const to = uniqueEmail('refused');
    app.smtp.setRefusing(true);
    await send(to, 'Refused for good');
    await expect.poll(async () => (await jobTo(to))?.state, { timeout: 10_000 }).toBe('failed');
    const { id } = (await jobTo(to))!;
    expect((await jobTo(to))!.retry_count).toBe(0);
    const listed = (await app.server.deps.jobs.failed()).find((j) => j.id === id);
    expect(listed).toMatchObject({ name: 'mail.deliver', retryCount: 0 });
    expect(listed!.error).toMatch(/^The mail server refused this message: .*550/);

    // Accepting again does not bring it back by itself.
    app.smtp.setRefusing(false);
    await settle(6_000);
    expect(received(to)).toHaveLength(0);
    expect((await jobTo(to))!.state).toBe('failed');

    await app.server.deps.jobs.retry('mail.deliver', id);
    await app.smtp.waitFor(to, 'Refused for good', 20_000);
    await expect.poll(async () => (await jobTo(to))?.state, { timeout: 10_000 }).toBe('completed');
    await settle(300);
    expect(received(to)).toHaveLength(1);
  });
});
