CREATE TABLE "parental_consents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"parent_name" text NOT NULL,
	"notice_version" text NOT NULL,
	"method" text DEFAULT 'email_plus' NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"given_at" timestamp with time zone,
	"given_from_email" text,
	"confirmation_mailed_at" timestamp with time zone,
	"withdrawn_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "user_profiles" ADD COLUMN "parental_consent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "user_profiles" ADD COLUMN "parental_consent_by" text;--> statement-breakpoint
ALTER TABLE "parental_consents" ADD CONSTRAINT "parental_consents_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "parental_consents_user_idx" ON "parental_consents" USING btree ("user_id","requested_at");