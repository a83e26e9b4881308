ALTER TABLE "user_profiles" ADD COLUMN "own_athlete_erased_at" timestamp with time zone;--> statement-breakpoint
-- A family's shape changed (an athlete added or removed, the account's own athlete erased): every
-- API instance forgets the holder's sessions, whose viewer carries the family (auth/session.ts),
-- as migration 0012's triggers do for a changed user.
CREATE OR REPLACE FUNCTION notify_family_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  row_json jsonb := to_jsonb(COALESCE(NEW, OLD));
BEGIN
  PERFORM pg_notify('app_changes', json_build_object('topic', 'sessions', 'userId', COALESCE(row_json ->> 'family_id', row_json ->> 'id'), 'action', 'update')::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER family_changed AFTER UPDATE OF family_id, own_athlete_erased_at OR DELETE ON "user_profiles" FOR EACH ROW EXECUTE FUNCTION notify_family_change();
