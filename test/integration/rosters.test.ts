// An event's teams and rosters (issue 35, item 1): the admin imports a roster file on the footage
// screen; every bad line is reported with its number and what is wrong, and a file with any bad
// line changes nothing; a file imported again updates names and kits and adds what is new; a team
// can be removed with its roster; only an admin may do any of it. A family's request names the
// team and number and is linked to that roster entry; a doubtful link (no such number, two families
// on one athlete) cannot be bought until an admin confirms it.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROSTER } from '../../src/common/admin-messages';
import { CHECKOUT, REQUEST } from '../../src/common/dashboard-messages';
import { eventTeams, highlightRequests, orders, rosterEntries } from '../../src/server/db/schema';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { makeAdmin } from '../support/dashboard-fixtures';
import { jsonOf, settle } from '../support/http';

type User = Awaited<ReturnType<typeof createVerifiedUser>>;
let app: TestApp;
let admin: User;
let member: User;
const EVENT = 'austin-fall-league-2024';

beforeAll(async () => {
  app = await startTestApp({ rateLimitScale: 50 });
  admin = await createVerifiedUser(app, { fullName: 'Rita Roster' });
  await makeAdmin(app, admin.userId);
  member = await createVerifiedUser(app, { fullName: 'Max Member' });
});
afterAll(async () => {
  await app?.close();
});

const importAs = (cookie: string | undefined, csv: string, event = EVENT) =>
  app.fetch(`/api/admin/events/${event}/roster`, { method: 'POST', cookie, body: csv, headers: { 'content-type': 'text/csv' } });
const importCsv = (csv: string) => importAs(admin.cookie, csv);
const roster = async () => jsonOf<Array<{ name: string; kitColor: string | null; numberColor: string | null; athletes: Array<{ name: string; number: number }> }>>(await app.fetch(`/api/admin/events/${EVENT}/roster`, { cookie: admin.cookie }));
const counts = async () => ({ teams: (await app.db.select().from(eventTeams)).length, entries: (await app.db.select().from(rosterEntries)).length });

describe('rosters (issue 35, item 1)', () => {
  it('reports every bad line with its number and imports nothing', async () => {
    const before = await counts();
    const res = await importCsv(
      [
        'Team,Number,Name,Kit color,Number color',
        'Falcons,12,Ava Stone,#1e40af,#ffffff',
        ',7,No Team',
        'Falcons,twelve,Word Number',
        'Falcons,5,',
        'Falcons,12,Ava Again',
        'Hawks,3,Red Kit,red,#ffffff',
        'Hawks,10000,Too Big',
      ].join('\n'),
    );
    expect(res.status).toBe(400);
    expect(await jsonOf(res)).toEqual({
      code: 'ROSTER_REFUSED',
      title: ROSTER.failedTitle,
      message: ROSTER.badRows(6),
      lines: [
        'Line 3: the team is missing.',
        'Line 4: “twelve” is not a jersey number (0 to 9999).',
        "Line 5: the athlete's name is missing.",
        'Line 6: #12 of Falcons is already on line 2.',
        'Line 7: “red” is not a colour like #1e40af.',
        'Line 8: “10000” is not a jersey number (0 to 9999).',
      ],
    });
    expect(await counts()).toEqual(before);
  });

  it('refuses a file without the header or without athletes, with the exact message', async () => {
    for (const [csv, message] of [
      ['Falcons,12,Ava Stone', ROSTER.header],
      ['', ROSTER.empty],
      ['team,number,name\n\n', ROSTER.empty],
    ] as const) {
      const res = await importCsv(csv);
      expect(res.status).toBe(400);
      expect((await jsonOf(res)).message).toBe(message);
    }
    const tooBig = await importCsv(`team,number,name\n${'Falcons,1,A\n'.repeat(30_000)}`);
    expect(tooBig.status).toBe(413);
  });

  it('imports teams with their kits and athletes; importing again updates and adds, never removes', async () => {
    const first = await importCsv(
      ['team;number;name;kit color;number color', 'Falcons;12;Ava Stone;#1E40AF;#ffffff', 'Falcons;#4;"Lee, Jordan"', 'Hawks;3;Mia Park;#b91c1c;#000000'].join('\r\n'),
    );
    expect(first.status).toBe(200);
    expect(await jsonOf(first)).toMatchObject({ teamCount: 2, added: 3, updated: 0 });
    expect(await roster()).toMatchObject([
      { name: 'Falcons', kitColor: '#1e40af', numberColor: '#ffffff', athletes: [{ name: 'Lee, Jordan', number: 4 }, { name: 'Ava Stone', number: 12 }] },
      { name: 'Hawks', kitColor: '#b91c1c', athletes: [{ name: 'Mia Park', number: 3 }] },
    ]);
    const again = await importCsv('Team,Jersey,Player\nfalcons,12,Ava M. Stone\nHawks,8,Zoe Lin');
    expect(await jsonOf(again)).toMatchObject({ teamCount: 2, added: 1, updated: 1 });
    const teams = await roster();
    expect(teams.map((t) => [t.name, t.kitColor, t.athletes.map((a) => `${a.number} ${a.name}`)])).toEqual([
      ['Falcons', '#1e40af', ['4 Lee, Jordan', '12 Ava M. Stone']],
      ['Hawks', '#b91c1c', ['3 Mia Park', '8 Zoe Lin']],
    ]);
  });

  it('removes a team with its roster', async () => {
    const [hawks] = await app.db.select().from(eventTeams).where(eq(eventTeams.name, 'Hawks'));
    const res = await app.fetch(`/api/admin/events/${EVENT}/teams/${hawks!.id}`, { method: 'DELETE', cookie: admin.cookie });
    expect(res.status).toBe(200);
    expect((await roster()).map((t) => t.name)).toEqual(['Falcons']);
    expect(await app.db.select().from(rosterEntries).where(eq(rosterEntries.teamId, hawks!.id))).toEqual([]);
    const again = await app.fetch(`/api/admin/events/${EVENT}/teams/${hawks!.id}`, { method: 'DELETE', cookie: admin.cookie });
    expect(again.status).toBe(404);
    expect((await jsonOf(again)).message).toBe(ROSTER.notFound);
  });

  it('is refused to a visitor and to a family, and changes nothing', async () => {
    const before = await counts();
    for (const cookie of [undefined, member.cookie]) {
      const res = await importAs(cookie, 'team,number,name\nOwls,1,Sneaky');
      expect(res.status).toBe(cookie ? 403 : 401);
      expect((await app.fetch(`/api/admin/events/${EVENT}/roster`, { cookie })).status).toBe(cookie ? 403 : 401);
    }
    expect(await counts()).toEqual(before);
    const unknown = await importAs(admin.cookie, 'team,number,name\nOwls,1,A', 'no-such-event');
    expect(unknown.status).toBe(404);
  });
});

describe('requests linked to the roster (issue 35, item 1)', () => {
  const GAMES = ['austin-sat-1'];
  const ask = (who: User, body: Record<string, unknown>) => app.fetch('/api/requests', { method: 'POST', cookie: who.cookie, json: { eventId: EVENT, games: GAMES, ...body } });
  const approve = (id: string) => app.fetch(`/api/admin/requests/${id}/acknowledge`, { method: 'POST', cookie: admin.cookie });
  const checkout = (who: User, requestId: string) => app.fetch('/api/checkout', { method: 'POST', cookie: who.cookie, json: { requestId } });
  const review = async (id: string) => (await jsonOf<{ request: { roster: unknown } }>(await app.fetch(`/api/admin/requests/${id}/review`, { cookie: admin.cookie }))).request.roster;
  const requested = async (who: User, body: Record<string, unknown>) => {
    const res = await ask(who, body);
    expect(res.status).toBe(201);
    const { id } = await jsonOf<{ id: string }>(res);
    expect((await approve(id)).status).toBe(200);
    return id;
  };

  it('a family sees the event’s team names, never the roster’s athletes', async () => {
    const events = await jsonOf<Array<{ id: string; teams: string[] }>>(await app.fetch('/api/events', { cookie: member.cookie }));
    expect(events.find((e) => e.id === EVENT)!.teams).toEqual(['Falcons']);
    expect(JSON.stringify(events)).not.toContain('Ava M. Stone');
  });

  it('asks for the team and number at an event with rosters, with the exact messages, and creates nothing without them', async () => {
    const family = await createVerifiedUser(app, { fullName: 'Nia Nonumber' });
    for (const [body, code, message] of [
      [{}, 'TEAM_REQUIRED', REQUEST.teamRequired],
      [{ team: 'Falcons' }, 'NUMBER_REQUIRED', REQUEST.numberRequired],
      [{ team: 'Owls', jerseyNumber: 4 }, 'UNKNOWN_TEAM', REQUEST.unknownTeam],
      [{ team: 'Falcons', jerseyNumber: 'x' }, 'VALIDATION_ERROR', REQUEST.numberRequired],
    ] as const) {
      const res = await ask(family, body);
      expect(res.status).toBe(400);
      expect(await jsonOf(res)).toMatchObject({ code, message });
    }
    expect(await app.db.select().from(highlightRequests).where(eq(highlightRequests.userId, family.userId))).toEqual([]);
  });

  it('a sure link can be bought; a number claimed by two families, or on no roster, waits for the admin to confirm', async () => {
    const lee = await createVerifiedUser(app, { fullName: 'Lee Jordan' });
    const leeRequest = await requested(lee, { team: 'falcons', jerseyNumber: '4' });
    expect(await review(leeRequest)).toEqual({ team: 'Falcons', jerseyNumber: 4, rosterName: 'Lee, Jordan', doubts: [], confirmedAt: null });
    expect((await checkout(lee, leeRequest)).status).toBe(200);
    await app.smtp.waitFor(lee.email, 'Ready to purchase');

    // Two families name #12: neither can buy until the team confirms which is theirs.
    const ava = await createVerifiedUser(app, { fullName: 'Ava Stone' });
    const stranger = await createVerifiedUser(app, { fullName: 'Sly Stranger' });
    const avaRequest = await requested(ava, { team: 'Falcons', jerseyNumber: 12 });
    const strangerRequest = await requested(stranger, { team: 'Falcons', jerseyNumber: 12 });
    for (const [who, id] of [[ava, avaRequest], [stranger, strangerRequest]] as const) {
      expect(await review(id)).toMatchObject({ rosterName: 'Ava M. Stone', doubts: ['claimed_twice'], confirmedAt: null });
      const refused = await checkout(who, id);
      expect(refused.status).toBe(409);
      expect(await jsonOf(refused)).toMatchObject({ code: 'ROSTER_UNCONFIRMED', message: CHECKOUT.rosterUnconfirmed });
      const mine = await jsonOf<Array<{ id: string; rosterChecking: boolean }>>(await app.fetch('/api/requests', { cookie: who.cookie }));
      expect(mine.find((r) => r.id === id)!.rosterChecking).toBe(true);
    }
    expect(await app.db.select().from(orders).where(eq(orders.requestId, strangerRequest))).toEqual([]);

    // Only an admin confirms; then that family can buy, the other still cannot.
    expect((await app.fetch(`/api/admin/requests/${avaRequest}/confirm-athlete`, { method: 'POST', cookie: member.cookie })).status).toBe(403);
    expect((await app.fetch(`/api/admin/requests/${avaRequest}/confirm-athlete`, { method: 'POST', cookie: admin.cookie })).status).toBe(200);
    expect(await review(avaRequest)).toMatchObject({ doubts: ['claimed_twice'], confirmedAt: expect.any(String) });
    expect((await checkout(ava, avaRequest)).status).toBe(200);
    expect((await checkout(stranger, strangerRequest)).status).toBe(409);

    // A number on no roster.
    const nobody = await createVerifiedUser(app, { fullName: 'Nadia Nobody' });
    const nobodyRequest = await requested(nobody, { team: 'Falcons', jerseyNumber: 99 });
    expect(await review(nobodyRequest)).toEqual({ team: 'Falcons', jerseyNumber: 99, rosterName: null, doubts: ['no_entry'], confirmedAt: null });
    expect((await checkout(nobody, nobodyRequest)).status).toBe(409);
    // Its "ready to purchase" mail waits for the team's check: none at approval, one once confirmed.
    await settle(1500);
    expect(app.smtp.mails.filter((m) => m.to.includes(nobody.email.toLowerCase()) && m.subject.startsWith('Ready to purchase'))).toEqual([]);
    expect((await app.fetch(`/api/admin/requests/${nobodyRequest}/confirm-athlete`, { method: 'POST', cookie: admin.cookie })).status).toBe(200);
    await app.smtp.waitFor(nobody.email, 'Ready to purchase');
    expect((await checkout(nobody, nobodyRequest)).status).toBe(200);
  });

  it('a request made before its event had rosters keeps the approval as its check', async () => {
    const early = await createVerifiedUser(app, { fullName: 'Eli Early' });
    const asked = await app.fetch('/api/requests', { method: 'POST', cookie: early.cookie, json: { eventId: 'chicago-3v3-2024', games: [] } });
    expect(asked.status).toBe(201);
    const { id } = await jsonOf<{ id: string }>(asked);
    expect((await approve(id)).status).toBe(200);
    const imported = await importAs(admin.cookie, 'team,number,name\nBears,1,Bo Bear', 'chicago-3v3-2024');
    expect(imported.status).toBe(200);
    expect(await review(id)).toBeNull();
    expect((await checkout(early, id)).status).toBe(200);
  });
});
