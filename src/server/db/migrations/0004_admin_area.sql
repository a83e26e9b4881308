CREATE TABLE "audit_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"actor_id" text,
	"action" text NOT NULL,
	"subject_user_id" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_leases" (
	"job_id" uuid PRIMARY KEY NOT NULL,
	"job_name" text NOT NULL,
	"worker_id" text NOT NULL,
	"heartbeat_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_queue" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP TABLE "mail_queue" CASCADE;--> statement-breakpoint
ALTER TABLE "homepage_signups" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "session" ADD COLUMN "impersonated_by" text;--> statement-breakpoint
ALTER TABLE "user_videos" ADD COLUMN "processing_state" text DEFAULT 'ready' NOT NULL;--> statement-breakpoint
ALTER TABLE "user_videos" ADD COLUMN "processing_progress" integer;--> statement-breakpoint
ALTER TABLE "user_videos" ADD COLUMN "processing_error" text;--> statement-breakpoint
ALTER TABLE "user_videos" ADD COLUMN "source_key" text;--> statement-breakpoint
ALTER TABLE "user_videos" ADD COLUMN "uploaded_by" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_id_user_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_subject_user_id_user_id_fk" FOREIGN KEY ("subject_user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_subject_idx" ON "audit_log" USING btree ("subject_user_id","created_at");--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "user_videos" ADD CONSTRAINT "user_videos_uploaded_by_user_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "highlight_requests_user_status_idx" ON "highlight_requests" USING btree ("user_id","status");--> statement-breakpoint
-- The admin users search: a case-insensitive substring of the full name, e-mail or phone (the
-- phone also as bare digits, so "5125550100" finds "(512) 555-0100"). The text searched is kept in
-- a generated column, so neither the index nor a query computes it row by row.
CREATE OR REPLACE FUNCTION profile_search_text(first_name text, last_name text, email text, phone text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT lower(coalesce(first_name, '') || ' ' || coalesce(last_name, '') || ' ' || coalesce(email, '') || ' '
    || coalesce(phone, '') || ' ' || regexp_replace(coalesce(phone, ''), '\D', '', 'g'))
$$;
--> statement-breakpoint
ALTER TABLE user_profiles ADD COLUMN search_text text GENERATED ALWAYS AS (profile_search_text(first_name, last_name, email, phone)) STORED;
--> statement-breakpoint
-- A trigram index makes the substring search fast, where the database has pg_trgm (PostgreSQL's
-- contrib, and PGlite with the extension loaded); without it the search still works, scanning.
-- fastupdate off: new rows go into the index at once instead of a pending list, which PGlite
-- (no autovacuum) would only merge after 4 MB, leaving searches to scan until then.
DO $$ BEGIN
  IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'pg_trgm') THEN
    CREATE EXTENSION IF NOT EXISTS pg_trgm;
    CREATE INDEX IF NOT EXISTS user_profiles_search_trgm_idx ON user_profiles USING gin (search_text gin_trgm_ops) WITH (fastupdate = off);
  END IF;
END $$;
--> statement-breakpoint
-- The list's order (last name, first name, any letter case): a page is read off this index.
CREATE INDEX IF NOT EXISTS user_profiles_name_order_idx ON user_profiles (lower(last_name), lower(first_name), id);
