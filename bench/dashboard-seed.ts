// The dashboard's data set: ~10,000 other users with their sessions, videos, stills and requests,
// and the measured user's own rows, seeded with set-based SQL. Shared by dashboard-data.ts and
// request-path.ts.
import { sql } from 'drizzle-orm';
import type { TestApp } from '../test/support/app';
import { exec } from './support';

export const OTHER_USERS = 10_000;
export const TOTAL_VIDEOS = 50_000;
export const TOTAL_STILLS = 5_000;
export const TOTAL_REQUESTS = 3_000;
// The measured user's own rows (part of the totals above).
export const MINE_VISIBLE = 10;
export const MINE_HIDDEN = 3; // 2 not visible yet, 1 visible but no longer active
export const MINE_STILLS = 6;
export const MINE_REQUESTS = 2;

/** Seeds the data set around the measured user `me`, then ANALYZE. */
export async function seed(app: TestApp, me: string): Promise<void> {
  // Users (the profile trigger adds user_profiles), one live session each, and profile details.
  await exec(
    app,
    sql`INSERT INTO "user" (id, name, email, email_verified, created_at, updated_at)
        SELECT 'bench-' || g, 'Bench Athlete' || g, 'bench.athlete' || g || '@example.com', true,
               now() - g * interval '30 minutes', now() - g * interval '30 minutes'
        FROM generate_series(1, ${OTHER_USERS}::int) g`,
  );
  await exec(
    app,
    sql`UPDATE user_profiles
        SET username = 'athlete' || substr(id, 7), team_name = 'Team ' || (substr(id, 7)::int % 200),
            jersey_number = substr(id, 7)::int % 100, city = 'Austin', state = 'TX'
        WHERE id LIKE 'bench-%'`,
  );
  await exec(
    app,
    sql`INSERT INTO session (id, token, expires_at, user_id, ip_address, user_agent)
        SELECT 'bench-session-' || g, md5('bench-token-' || g), now() + interval '30 days',
               'bench-' || g, '127.0.0.1', 'bench'
        FROM generate_series(1, ${OTHER_USERS}::int) g`,
  );

  // Videos: the measured user's own, then the rest spread evenly over the other users.
  await exec(
    app,
    sql`INSERT INTO user_videos (user_id, video_title, opponent, tournament_name, video_url, thumbnail_url,
                                 video_type, is_processed, status, is_visible, is_paid,
                                 duration_seconds, file_size_mb, width, height, created_at)
        SELECT ${me}::text, 'My game ' || g, 'Opponent ' || g, 'Austin Fall League',
               'user-videos/' || ${me}::text || '/video-' || g || '.mp4',
               'video-thumbnails/' || ${me}::text || '/video-' || g || '.jpg',
               (ARRAY['full_video', 'social_cut', 'highlight_reel'])[1 + g % 3]::video_type,
               true,
               CASE WHEN g = ${MINE_VISIBLE + MINE_HIDDEN} THEN 'removed' ELSE 'active' END,
               g <= ${MINE_VISIBLE} OR g = ${MINE_VISIBLE + MINE_HIDDEN},
               g % 2 = 0, 60 + g * 7, 20 + g,
               CASE WHEN g % 4 = 0 THEN 1080 ELSE 1920 END, CASE WHEN g % 4 = 0 THEN 1920 ELSE 1080 END,
               now() - g * interval '1 day'
        FROM generate_series(1, ${MINE_VISIBLE + MINE_HIDDEN}::int) g`,
  );
  await exec(
    app,
    sql`INSERT INTO user_videos (user_id, video_title, opponent, tournament_name, video_url, thumbnail_url,
                                 video_type, is_processed, status, is_visible, is_paid,
                                 duration_seconds, file_size_mb, width, height, created_at)
        SELECT 'bench-' || (1 + g % ${OTHER_USERS}::int), 'Game ' || g, 'Opponent ' || (g % 97), 'Tournament ' || (g % 13),
               CASE WHEN g % 20 = 0 THEN NULL ELSE 'user-videos/bench-' || (1 + g % ${OTHER_USERS}::int) || '/v' || g || '.mp4' END,
               'video-thumbnails/bench-' || (1 + g % ${OTHER_USERS}::int) || '/v' || g || '.jpg',
               (ARRAY['full_video', 'social_cut', 'highlight_reel'])[1 + g % 3]::video_type,
               g % 20 <> 0,
               CASE WHEN g % 50 = 0 THEN 'removed' ELSE 'active' END,
               g % 5 <> 0, g % 3 = 0, 30 + g % 600, 5 + g % 400,
               CASE WHEN g % 4 = 0 THEN 1080 ELSE 1920 END, CASE WHEN g % 4 = 0 THEN 1920 ELSE 1080 END,
               now() - (g % 7919) * interval '1 hour'
        FROM generate_series(1, ${TOTAL_VIDEOS - MINE_VISIBLE - MINE_HIDDEN}::int) g`,
  );

  // Stills.
  await exec(
    app,
    sql`INSERT INTO user_stills (user_id, storage_url, original_filename, order_position, created_at)
        SELECT CASE WHEN g <= ${MINE_STILLS} THEN ${me}::text ELSE 'bench-' || (1 + g % ${OTHER_USERS}::int) END,
               'user-stills/' || CASE WHEN g <= ${MINE_STILLS} THEN ${me}::text ELSE 'bench-' || (1 + g % ${OTHER_USERS}::int) END
                 || '/still-' || g || '.jpg',
               'IMG_' || g || '.jpg', g % 8, now() - g * interval '1 hour'
        FROM generate_series(1, ${TOTAL_STILLS}::int) g`,
  );

  // Highlight requests: at most one per (user, event) is open, as the partial unique index wants.
  await exec(
    app,
    sql`INSERT INTO highlight_requests (user_id, status, event_id, event, games, created_at, updated_at)
        SELECT ${me}::text, (ARRAY['pending', 'delivered'])[g]::highlight_request_status,
               (ARRAY['austin-fall-league-2024', 'chicago-3v3-2024'])[g],
               (ARRAY['Austin Fall League (Austin, TX, Oct 18-19)', 'Chicago 3v3 (Chicago, IL, Nov 9)'])[g],
               '["Saturday Court 1: Semifinal"]'::jsonb, now() - g * interval '3 days', now() - g * interval '3 days'
        FROM generate_series(1, ${MINE_REQUESTS}::int) g`,
  );
  await exec(
    app,
    sql`INSERT INTO highlight_requests (user_id, status, event_id, event, games, created_at, updated_at)
        SELECT 'bench-' || (1 + g % ${OTHER_USERS}::int),
               (ARRAY['pending', 'ready_to_purchase', 'delivered'])[1 + g % 3]::highlight_request_status,
               CASE WHEN g % 2 = 0 THEN 'austin-fall-league-2024' ELSE 'chicago-3v3-2024' END,
               CASE WHEN g % 2 = 0 THEN 'Austin Fall League (Austin, TX, Oct 18-19)' ELSE 'Chicago 3v3 (Chicago, IL, Nov 9)' END,
               '["Saturday Court 1: Semifinal", "Sunday Court 1: Championship"]'::jsonb,
               now() - g * interval '2 hours', now() - g * interval '1 hour'
        FROM generate_series(1, ${TOTAL_REQUESTS - MINE_REQUESTS}::int) g`,
  );

  await exec(app, sql`ANALYZE`);
}
