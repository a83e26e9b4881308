-- Every API instance remembers who a session cookie belongs to for a few seconds
-- (auth/viewer-cache.ts). These triggers tell them at once when that can have changed: a session
-- ended or renewed, a user changed or deleted, an admin granted or revoked, a session that passed
-- the second factor. The notice goes on the event bus's channel as topic 'sessions', carrying
-- only the user's id; whatever changed it (better-auth, `npm run admin`, SQL by hand) sends it.
CREATE OR REPLACE FUNCTION notify_session_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  row_json jsonb := to_jsonb(COALESCE(NEW, OLD));
BEGIN
  PERFORM pg_notify('app_changes', json_build_object('topic', 'sessions', 'userId', row_json ->> TG_ARGV[0], 'action', 'update')::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER session_changed AFTER UPDATE OR DELETE ON "session" FOR EACH ROW EXECUTE FUNCTION notify_session_change('user_id');
--> statement-breakpoint
CREATE TRIGGER user_changed AFTER UPDATE OR DELETE ON "user" FOR EACH ROW EXECUTE FUNCTION notify_session_change('id');
--> statement-breakpoint
CREATE TRIGGER admin_changed AFTER INSERT OR UPDATE OR DELETE ON "admins" FOR EACH ROW EXECUTE FUNCTION notify_session_change('user_id');
--> statement-breakpoint
-- A session that passed the second factor (auth/two-factor.ts markSessionPassed): the value is the user's id.
CREATE TRIGGER second_factor_passed AFTER INSERT ON "verification" FOR EACH ROW WHEN (NEW.identifier LIKE 'two-factor-passed:%') EXECUTE FUNCTION notify_session_change('value');
