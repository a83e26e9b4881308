CREATE TABLE "team_notices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"subject" text NOT NULL,
	"lines" jsonb NOT NULL,
	"link" text NOT NULL,
	"reply_to" text,
	"user_id" text,
	"status" text NOT NULL,
	"summary_day" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "team_notices_key_unique" UNIQUE("key")
);
--> statement-breakpoint
ALTER TABLE "team_notices" ADD CONSTRAINT "team_notices_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "team_notices_status_idx" ON "team_notices" USING btree ("status","created_at");