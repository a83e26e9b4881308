// Issue 34, item 3: a fresh install has no events of its own; the sample ones come only from
// `npm run seed:demo`, marked demo. An install that already has them keeps the ones families used
// (nothing lost), and every event says how its reels are made. On PGlite, or on a fresh
// PostgreSQL database when TEST_DATABASE_URL is set.
import fs from 'node:fs';
import { asc, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { migrationsFolder, type Db } from '../../src/server/db/client';
import * as schema from '../../src/server/db/schema';
import { runAdminCommand } from '../../src/server/admin/service';
import { freshDatabase as freshDatabaseWith, migrationsUpTo } from '../support/migrations';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const fn of cleanups.splice(0).reverse()) await fn();
});

const freshDatabase = () => freshDatabaseWith(cleanups, 't_demo');

const eventRows = (db: Db) =>
  db.select({ id: schema.events.id, reelSource: schema.events.reelSource, demo: schema.events.demo }).from(schema.events).orderBy(asc(schema.events.id));

describe('demo events (issue 34, item 3)', () => {
  it('a fresh install has none; seed:demo adds them once, marked demo and hand-made', async () => {
    const { db, migrate } = await freshDatabase();
    await migrate(migrationsFolder);
    expect(await eventRows(db)).toEqual([]);

    const first = await runAdminCommand({ db } as Parameters<typeof runAdminCommand>[0], 'seed-demo', '');
    expect(first).toEqual({ ok: true, message: 'Added the demo events (sample data for trying the product, not real events): Austin Fall League, Chicago 3v3.' });
    expect(await eventRows(db)).toEqual([
      { id: 'austin-fall-league-2024', reelSource: 'hand', demo: true },
      { id: 'chicago-3v3-2024', reelSource: 'hand', demo: true },
    ]);
    const games = await db.select({ id: schema.eventGames.id }).from(schema.eventGames).orderBy(asc(schema.eventGames.position));
    expect(games.map((g) => g.id)).toEqual(['austin-sat-1', 'austin-sat-2', 'austin-sat-3', 'austin-sat-4', 'austin-sat-5', 'austin-sun-1', 'austin-sun-2', 'austin-sun-3', 'austin-sun-4', 'austin-sun-5']);

    const again = await runAdminCommand({ db } as Parameters<typeof runAdminCommand>[0], 'seed-demo', '');
    expect(again).toEqual({ ok: true, message: 'The demo events are already there; nothing was added.' });
    expect(await eventRows(db)).toHaveLength(2);
  }, 60_000);

  it('upgrading a populated install keeps the events families used and says how each makes its reels', async () => {
    const { db, migrate } = await freshDatabase();
    const before = migrationsUpTo('0016_consent_pending');
    cleanups.push(async () => fs.rmSync(before, { recursive: true, force: true }));
    await migrate(before);
    // As the last release left it: its two sample events, a family's request for one, and an
    // event of the provider's own with a camera file.
    await db.execute(sql`insert into "user" (id, name, email, email_verified) values ('u-fam', 'Fam Ily', 'fam@example.com', true)`);
    await db.execute(sql`insert into highlight_requests (user_id, status, event_id, event, games)
      values ('u-fam', 'ready_to_purchase', 'chicago-3v3-2024', 'Chicago 3v3 (Chicago, IL, Nov 9)', '[]'::jsonb)`);
    await db.execute(sql`insert into events (id, name, location, dates) values ('spring-cup', 'Spring Cup', 'Dallas, TX', 'Apr 4'), ('summer-camp', 'Summer Camp', 'Waco, TX', 'Jun 1')`);
    await db.execute(sql`insert into event_games (id, event_id, label, position) values ('spring-g1', 'spring-cup', 'Game 1', 1)`);
    await db.execute(sql`insert into footage (event_id, game_id, camera, source_key, size_bytes) values ('spring-cup', 'spring-g1', 'Camera 1', 'footage/x.mp4', 1000)`);
    const requests = async () => ((await db.execute(sql`select id, status, event_id from highlight_requests`)) as unknown as { rows: unknown[] }).rows;
    const requestsBefore = await requests();
    expect(requestsBefore).toHaveLength(1);

    await migrate(migrationsFolder);

    expect(await eventRows(db)).toEqual([
      // Asked for by a family: stays, now marked demo; it never had footage, so its reels stay hand-made.
      { id: 'chicago-3v3-2024', reelSource: 'hand', demo: true },
      { id: 'spring-cup', reelSource: 'footage', demo: false },
      { id: 'summer-camp', reelSource: 'hand', demo: false },
    ]);
    expect(await requests()).toEqual(requestsBefore);
  }, 60_000);
});
