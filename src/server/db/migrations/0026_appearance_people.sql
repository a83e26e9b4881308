ALTER TABLE "appearances" ADD COLUMN "person_track_ids" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "appearances" ADD COLUMN "reason" text;