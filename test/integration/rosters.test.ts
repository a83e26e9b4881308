// An event's teams and rosters (issue 35, item 1): the admin imports a roster file on the footage
// screen; every bad line is reported with its number and what is wrong, and a file with any bad
// line changes nothing; a file imported again updates names and kits and adds what is new; a team
// can be removed with its roster; only an admin may do any of it.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROSTER } from '../../src/common/admin-messages';
import { eventTeams, rosterEntries } from '../../src/server/db/schema';
import { createVerifiedUser, startTestApp, type TestApp } from '../support/app';
import { makeAdmin } from '../support/dashboard-fixtures';
import { jsonOf } from '../support/http';

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
