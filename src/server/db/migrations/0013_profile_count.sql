CREATE TABLE "user_profile_count" (
	"only_row" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"profiles" integer NOT NULL,
	CONSTRAINT "user_profile_count_one_row" CHECK ("user_profile_count"."only_row")
);
--> statement-breakpoint
-- The admin users list's total (admin/users.ts), kept here instead of counted on every open. A
-- statement-level trigger with its transition table adds or takes away as many as a statement
-- inserted or deleted (a set-based insert of thousands of profiles updates the row once; a user
-- deleted takes their profile away through the foreign key's cascade, a statement too).
-- Concurrent statements queue on the one row, each adding to what the one before committed.
INSERT INTO "user_profile_count" ("profiles") SELECT count(*) FROM "user_profiles";
--> statement-breakpoint
CREATE OR REPLACE FUNCTION count_user_profiles() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "user_profile_count" SET "profiles" = "profiles" + (SELECT count(*) FROM inserted_profiles);
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE "user_profile_count" SET "profiles" = "profiles" - (SELECT count(*) FROM deleted_profiles);
  ELSE
    UPDATE "user_profile_count" SET "profiles" = 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER user_profiles_counted_on_insert AFTER INSERT ON "user_profiles"
  REFERENCING NEW TABLE AS inserted_profiles FOR EACH STATEMENT EXECUTE FUNCTION count_user_profiles();
--> statement-breakpoint
CREATE TRIGGER user_profiles_counted_on_delete AFTER DELETE ON "user_profiles"
  REFERENCING OLD TABLE AS deleted_profiles FOR EACH STATEMENT EXECUTE FUNCTION count_user_profiles();
--> statement-breakpoint
CREATE TRIGGER user_profiles_counted_on_truncate AFTER TRUNCATE ON "user_profiles"
  FOR EACH STATEMENT EXECUTE FUNCTION count_user_profiles();
