CREATE TYPE "public"."reel_source" AS ENUM('footage', 'hand');--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "reel_source" "reel_source" DEFAULT 'footage' NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "demo" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Events that have no footage yet kept the flow they were offered with: made by hand after payment.
UPDATE "events" e SET "reel_source" = 'hand' WHERE NOT EXISTS (SELECT 1 FROM "footage" f WHERE f."event_id" = e."id");--> statement-breakpoint
-- The two sample events migration 0001 added are demo data now; nothing real hangs on them unless
-- a family asked for them or footage was uploaded to them, and then they stay.
UPDATE "events" SET "demo" = true WHERE "id" IN ('austin-fall-league-2024', 'chicago-3v3-2024');--> statement-breakpoint
DELETE FROM "events" e WHERE e."demo"
  AND NOT EXISTS (SELECT 1 FROM "highlight_requests" r WHERE r."event_id" = e."id")
  AND NOT EXISTS (SELECT 1 FROM "footage" f WHERE f."event_id" = e."id");
