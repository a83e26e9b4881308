ALTER TABLE "appearances" ADD COLUMN "seen_start_s" real;--> statement-breakpoint
ALTER TABLE "appearances" ADD COLUMN "seen_end_s" real;--> statement-breakpoint
ALTER TABLE "appearances" ADD COLUMN "samples" integer;--> statement-breakpoint
ALTER TABLE "appearances" ADD COLUMN "face_search" text;--> statement-breakpoint
ALTER TABLE "face_tracks" ADD COLUMN "samples" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "footage" ADD COLUMN "shot_cuts" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "footage" ADD COLUMN "sync_offset_s" real DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "footage" ADD COLUMN "sync_source" text;