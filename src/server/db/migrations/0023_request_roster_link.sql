ALTER TABLE "highlight_requests" ADD COLUMN "team_name" text;--> statement-breakpoint
ALTER TABLE "highlight_requests" ADD COLUMN "jersey_number" integer;--> statement-breakpoint
ALTER TABLE "highlight_requests" ADD COLUMN "roster_entry_id" uuid;--> statement-breakpoint
ALTER TABLE "highlight_requests" ADD COLUMN "roster_confirmed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "highlight_requests" ADD COLUMN "roster_confirmed_by" text;--> statement-breakpoint
ALTER TABLE "highlight_requests" ADD CONSTRAINT "highlight_requests_roster_entry_id_roster_entries_id_fk" FOREIGN KEY ("roster_entry_id") REFERENCES "public"."roster_entries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "highlight_requests" ADD CONSTRAINT "highlight_requests_roster_confirmed_by_user_id_fk" FOREIGN KEY ("roster_confirmed_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "highlight_requests_roster_entry_idx" ON "highlight_requests" USING btree ("roster_entry_id");