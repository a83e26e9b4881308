// The team told what needs them (issue 36 item 4): a new request, a payment, a paid request waiting
// more than a day and a failed job each reach the team's address (TEAM_EMAIL) once, with a direct
// link into the admin area; past the day's share of mails the rest wait for one daily summary.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { highlightRequests, orders, promoCodes, teamNotices } from '../../src/server/db/schema';
import { storageKeys } from '../../src/server/storage/keys';
import { runTeamChecks } from '../../src/server/team/checks';
import { sendTeamSummary, tellTeam } from '../../src/server/team/notices';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { insertPerson, insertVideo } from '../support/dashboard-fixtures';
import { eventually, insertRequest } from '../support/purchase';

const TEAM = 'ops@provider.example';
let app: TestApp;

const mailsTo = (subject: string) => app.smtp.mails.filter((m) => m.to.includes(TEAM) && m.subject.includes(subject));
const linkOf = (text: string) => /https?:\/\/\S+/.exec(text.trim().split('\n').at(-1)!)?.[0];

beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: 50, team: { email: TEAM, mailsPerDay: 1000, summaryHourUtc: 0 } });
  await app.db.insert(promoCodes).values({ code: 'ONTHEHOUSE', discountPercent: 100, active: true });
}, 60_000);
afterAll(() => app?.close());

describe('notices to the team', () => {
  it('a new request: to the team’s address, answering the family, with the review’s link', async () => {
    const family = await createVerifiedUser(app, { fullName: 'Nia Notice' });
    await app.fetch('/api/profile/athlete', { method: 'PUT', cookie: family.cookie, json: { birthday: '2011-03-14', guardianConsent: true } });
    const events = (await (await app.fetch('/api/events', { cookie: family.cookie })).json()) as Array<{ id: string; games: Array<{ id: string }> }>;
    const res = await app.fetch('/api/requests', { method: 'POST', cookie: family.cookie, json: { eventId: events[0]!.id, games: [events[0]!.games[0]!.id] } });
    expect(res.status, await res.clone().text()).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const mail = await app.smtp.waitFor(TEAM, 'Highlight reel request: Nia Notice');
    expect(mail.replyTo).toContain(family.email);
    expect(linkOf(mail.text)).toBe(`${app.origin}/admin/requests/${id}`);
    expect(mail.html).toContain(`href="${app.origin}/admin/requests/${id}"`);
  });

  it('a payment, once, however often its event comes', async () => {
    const family = await createVerifiedUser(app, { fullName: 'Pia Paid' });
    const requestId = await insertRequest(app, family.userId);
    const res = await app.fetch('/api/checkout', { method: 'POST', cookie: family.cookie, json: { requestId, promoCode: 'onthehouse' } });
    expect(res.status).toBe(200);
    const mail = await app.smtp.waitFor(TEAM, 'Paid $0.00: Pia Paid');
    expect(mail.text).toContain('with the code ONTHEHOUSE');
    expect(linkOf(mail.text)).toBe(`${app.origin}/admin/requests/${requestId}`);
    const [order] = await app.db.select().from(orders).where(eq(orders.requestId, requestId));
    const { afterOrderCompleted } = await import('../../src/server/payments/completion');
    await afterOrderCompleted(app.server.deps, order!);
    await new Promise((r) => setTimeout(r, 500));
    expect(mailsTo('Paid $0.00: Pia Paid')).toHaveLength(1);
  });

  it('a paid request still not delivered a day later, told once', async () => {
    const family = await createVerifiedUser(app, { fullName: 'Wes Waiting' });
    const requestId = await insertRequest(app, family.userId);
    const paidAt = new Date(Date.now() - 25 * 60 * 60 * 1000);
    await app.db.insert(orders).values({ userId: family.userId, requestId, amount: 15000, provider: 'stripe', status: 'completed', completedAt: paidAt, receiptQueuedAt: paidAt });
    // A request paid an hour ago is not late.
    const fresh = await createVerifiedUser(app, { fullName: 'Fran Fresh' });
    const freshRequest = await insertRequest(app, fresh.userId);
    await app.db.insert(orders).values({ userId: fresh.userId, requestId: freshRequest, amount: 15000, provider: 'stripe', status: 'completed', completedAt: new Date(Date.now() - 3600_000) });
    await runTeamChecks(app.server.deps);
    await runTeamChecks(app.server.deps);
    const mail = await app.smtp.waitFor(TEAM, 'Paid and waiting over a day: Wes Waiting');
    expect(linkOf(mail.text)).toBe(`${app.origin}/admin/requests/${requestId}`);
    await new Promise((r) => setTimeout(r, 500));
    expect(mailsTo('Paid and waiting over a day: Wes Waiting')).toHaveLength(1);
    expect(mailsTo('Fran Fresh')).toHaveLength(0);
    // Delivered, it is no longer late.
    await app.db.update(highlightRequests).set({ status: 'delivered' }).where(eq(highlightRequests.id, requestId));
  });

  it('a job that failed for good, with its error and the admin home’s link', async () => {
    const athlete = await insertPerson(app, { firstName: 'Jo', lastName: 'Job' });
    const video = await insertVideo(app, athlete, { processingState: 'queued' }, { bytes: null });
    const jobId = await app.server.deps.jobs.send('media.process-video', { videoId: video.id, uploadKey: storageKeys.videoSource(athlete, video.id) }, { retryLimit: 0 });
    await expect.poll(async () => (await app.server.deps.jobs.state('media.process-video', jobId))?.state, { timeout: 15_000 }).toBe('failed');
    await runTeamChecks(app.server.deps);
    const mail = await app.smtp.waitFor(TEAM, 'A job failed');
    expect(mail.text).toContain('The uploaded file is missing.');
    expect(linkOf(mail.text)).toBe(`${app.origin}/admin#failed-jobs`);
    await runTeamChecks(app.server.deps);
    await new Promise((r) => setTimeout(r, 500));
    expect(mailsTo('A job failed')).toHaveLength(1);
  });
});

describe('the daily summary', () => {
  it('past the day’s share, notices wait for one summary at its hour, grouped, with links and the queue', async () => {
    const deps = { ...app.server.deps, config: { ...app.server.deps.config, team: { email: TEAM, mailsPerDay: 0, summaryHourUtc: 13 } } };
    const notice = (n: number) => ({ key: `test-held:${n}`, kind: 'request' as const, subject: `Held request ${n}`, lines: [`Request ${n}`], link: `${app.origin}/admin/requests/held-${n}` });
    for (let n = 1; n <= 3; n++) expect(await tellTeam(deps, notice(n))).toBe('held');
    expect(await tellTeam(deps, notice(1))).toBe('known');
    expect(await tellTeam(deps, { ...notice(9), key: 'test-held:payment', kind: 'payment', subject: 'Held payment' })).toBe('held');
    // Before the hour, nothing goes.
    expect(await sendTeamSummary(deps, new Date('2031-05-04T12:59:00Z'))).toBe(0);
    const held = await app.db.select().from(teamNotices).where(eq(teamNotices.status, 'held'));
    expect(held.length).toBeGreaterThanOrEqual(4);
    expect(await sendTeamSummary(deps, new Date('2031-05-04T13:00:00Z'))).toBe(held.length);
    const mail = await app.smtp.waitFor(TEAM, 'Today for the team');
    expect(mail.subject).toBe(`Today for the team: ${held.length} (2031-05-04)`);
    expect(mail.text).toContain('New requests (3):');
    expect(mail.text).toContain('Payments (1):');
    expect(mail.text).toContain(`- Held request 2\n  ${app.origin}/admin/requests/held-2`);
    expect(mail.text).toMatch(/Waiting now: \d+ to approve, \d+ to review, \d+ paid and waiting\./);
    expect(mail.html).toContain(`href="${app.origin}/admin/requests/held-3"`);
    expect(await app.db.select().from(teamNotices).where(eq(teamNotices.status, 'held'))).toEqual([]);
    // Once a day: what comes later that day waits for tomorrow's.
    expect(await tellTeam(deps, notice(4))).toBe('held');
    expect(await sendTeamSummary(deps, new Date('2031-05-04T20:00:00Z'))).toBe(0);
    expect(await sendTeamSummary(deps, new Date('2031-05-05T13:05:00Z'))).toBe(1);
    await eventually(async () => mailsTo('Today for the team: 1 (2031-05-05)').length === 1);
  });

  it('a notice left between stored and mailed by a crash is mailed by the periodic check, once', async () => {
    await app.db.insert(teamNotices).values({
      key: 'test-crashed',
      kind: 'request',
      subject: 'Crashed before its mail',
      lines: ['x'],
      link: `${app.origin}/admin/requests`,
      status: 'sending',
      createdAt: new Date(Date.now() - 120_000),
    });
    await runTeamChecks(app.server.deps);
    await app.smtp.waitFor(TEAM, 'Crashed before its mail');
    expect((await app.db.select().from(teamNotices).where(eq(teamNotices.key, 'test-crashed')))[0]!.status).toBe('mailed');
  });
});
