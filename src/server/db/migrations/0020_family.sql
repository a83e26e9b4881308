ALTER TABLE "user_profiles" ADD COLUMN "family_id" text;--> statement-breakpoint
ALTER TABLE "user_profiles" ADD COLUMN "holder_name" text;--> statement-breakpoint
ALTER TABLE "user_profiles" ADD CONSTRAINT "user_profiles_family_id_user_id_fk" FOREIGN KEY ("family_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_profiles_family_idx" ON "user_profiles" USING btree ("family_id");--> statement-breakpoint
-- Every existing account is a family of one athlete: its own profile. The parent who gave (or typed) an under-13's consent is the holder.
UPDATE "user_profiles" p SET "holder_name" = c."parent_name" FROM (SELECT DISTINCT ON ("user_id") "user_id", "parent_name" FROM "parental_consents" ORDER BY "user_id", "requested_at" DESC) c WHERE c."user_id" = p."id" AND p."holder_name" IS NULL;
--> statement-breakpoint
-- An added athlete's profile carries the family's address (the holder's): it follows the holder's changes.
CREATE OR REPLACE FUNCTION sync_user_profile_email() RETURNS trigger AS $$
BEGIN
  UPDATE user_profiles SET email = NEW.email WHERE id = NEW.id OR family_id = NEW.id;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;
