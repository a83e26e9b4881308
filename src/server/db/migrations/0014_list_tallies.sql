CREATE TABLE "user_list_tallies" (
	"user_id" text PRIMARY KEY NOT NULL,
	"pending" integer DEFAULT 0 NOT NULL,
	"ready_to_purchase" integer DEFAULT 0 NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"videos" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- The admin users list's filters (admin/users.ts) read these tallies. Statement-level triggers
-- with transition tables add what a statement inserted and take away what it deleted, grouped by
-- user, so a set-based change touches each user's row once. Each change is an increment applied
-- by INSERT … ON CONFLICT DO UPDATE, which concurrent transactions queue on and apply to the
-- latest row: none is lost, as a recount from a snapshot could lose one.
INSERT INTO "user_list_tallies" ("user_id", "pending", "ready_to_purchase", "delivered", "videos")
SELECT "user_id", sum("pending"), sum("ready_to_purchase"), sum("delivered"), sum("videos") FROM (
  SELECT "user_id",
         ("status" = 'pending')::int AS "pending",
         ("status" = 'ready_to_purchase')::int AS "ready_to_purchase",
         ("status" = 'delivered')::int AS "delivered",
         0 AS "videos"
  FROM "highlight_requests"
  UNION ALL
  SELECT "user_id", 0, 0, 0, 1 FROM "user_videos"
) AS "held"
GROUP BY "user_id";
--> statement-breakpoint
-- Adds signed changes, one element per changed row, to the tallies; removes the rows of the users
-- they touched that fell to nothing.
CREATE OR REPLACE FUNCTION apply_user_list_tallies(users text[], pending int[], ready int[], delivered int[], videos int[])
RETURNS void LANGUAGE sql AS $$
  INSERT INTO "user_list_tallies" AS t ("user_id", "pending", "ready_to_purchase", "delivered", "videos")
  SELECT c."user_id", sum(c."pending"), sum(c."ready"), sum(c."delivered"), sum(c."videos")
  FROM unnest(users, pending, ready, delivered, videos) AS c("user_id", "pending", "ready", "delivered", "videos")
  GROUP BY c."user_id"
  HAVING sum(c."pending") <> 0 OR sum(c."ready") <> 0 OR sum(c."delivered") <> 0 OR sum(c."videos") <> 0
  -- Every transaction takes the rows in the same order, so two never wait on each other in a circle.
  ORDER BY c."user_id"
  ON CONFLICT ("user_id") DO UPDATE SET
    "pending" = t."pending" + excluded."pending",
    "ready_to_purchase" = t."ready_to_purchase" + excluded."ready_to_purchase",
    "delivered" = t."delivered" + excluded."delivered",
    "videos" = t."videos" + excluded."videos";
  DELETE FROM "user_list_tallies"
  WHERE "user_id" = ANY (users)
    AND "pending" = 0 AND "ready_to_purchase" = 0 AND "delivered" = 0 AND "videos" = 0;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tally_highlight_requests() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE "user_list_tallies" SET "pending" = 0, "ready_to_purchase" = 0, "delivered" = 0;
    DELETE FROM "user_list_tallies" WHERE "videos" = 0;
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM apply_user_list_tallies(array_agg("user_id"), array_agg(("status" = 'pending')::int),
      array_agg(("status" = 'ready_to_purchase')::int), array_agg(("status" = 'delivered')::int), array_agg(0))
    FROM "new_requests";
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM apply_user_list_tallies(array_agg("user_id"), array_agg(-("status" = 'pending')::int),
      array_agg(-("status" = 'ready_to_purchase')::int), array_agg(-("status" = 'delivered')::int), array_agg(0))
    FROM "old_requests";
  ELSE
    -- An update, row by row, and only of a row whose status or owner changed (the trigger's WHEN).
    PERFORM apply_user_list_tallies(ARRAY[OLD."user_id", NEW."user_id"],
      ARRAY[-(OLD."status" = 'pending')::int, (NEW."status" = 'pending')::int],
      ARRAY[-(OLD."status" = 'ready_to_purchase')::int, (NEW."status" = 'ready_to_purchase')::int],
      ARRAY[-(OLD."status" = 'delivered')::int, (NEW."status" = 'delivered')::int], ARRAY[0, 0]);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION tally_user_videos() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE "user_list_tallies" SET "videos" = 0;
    DELETE FROM "user_list_tallies" WHERE "pending" = 0 AND "ready_to_purchase" = 0 AND "delivered" = 0;
  ELSIF TG_OP = 'INSERT' THEN
    PERFORM apply_user_list_tallies(array_agg("user_id"), array_agg(0), array_agg(0), array_agg(0), array_agg(1)) FROM "new_videos";
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM apply_user_list_tallies(array_agg("user_id"), array_agg(0), array_agg(0), array_agg(0), array_agg(-1)) FROM "old_videos";
  ELSE
    -- An update that gave a video to another user (the trigger's WHEN): rare, row by row.
    PERFORM apply_user_list_tallies(ARRAY[OLD."user_id", NEW."user_id"], ARRAY[0, 0], ARRAY[0, 0], ARRAY[0, 0], ARRAY[-1, 1]);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER highlight_requests_tallied_on_insert AFTER INSERT ON "highlight_requests"
  REFERENCING NEW TABLE AS new_requests FOR EACH STATEMENT EXECUTE FUNCTION tally_highlight_requests();
--> statement-breakpoint
-- Row by row with a WHEN: most updates of a request (its games, its times) change neither, and
-- then nothing runs at all.
CREATE TRIGGER highlight_requests_tallied_on_update AFTER UPDATE OF "status", "user_id" ON "highlight_requests"
  FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status" OR OLD."user_id" IS DISTINCT FROM NEW."user_id")
  EXECUTE FUNCTION tally_highlight_requests();
--> statement-breakpoint
CREATE TRIGGER highlight_requests_tallied_on_delete AFTER DELETE ON "highlight_requests"
  REFERENCING OLD TABLE AS old_requests FOR EACH STATEMENT EXECUTE FUNCTION tally_highlight_requests();
--> statement-breakpoint
CREATE TRIGGER highlight_requests_tallied_on_truncate AFTER TRUNCATE ON "highlight_requests"
  FOR EACH STATEMENT EXECUTE FUNCTION tally_highlight_requests();
--> statement-breakpoint
CREATE TRIGGER user_videos_tallied_on_insert AFTER INSERT ON "user_videos"
  REFERENCING NEW TABLE AS new_videos FOR EACH STATEMENT EXECUTE FUNCTION tally_user_videos();
--> statement-breakpoint
CREATE TRIGGER user_videos_tallied_on_update AFTER UPDATE OF "user_id" ON "user_videos"
  FOR EACH ROW WHEN (OLD."user_id" IS DISTINCT FROM NEW."user_id") EXECUTE FUNCTION tally_user_videos();
--> statement-breakpoint
CREATE TRIGGER user_videos_tallied_on_delete AFTER DELETE ON "user_videos"
  REFERENCING OLD TABLE AS old_videos FOR EACH STATEMENT EXECUTE FUNCTION tally_user_videos();
--> statement-breakpoint
CREATE TRIGGER user_videos_tallied_on_truncate AFTER TRUNCATE ON "user_videos"
  FOR EACH STATEMENT EXECUTE FUNCTION tally_user_videos();
