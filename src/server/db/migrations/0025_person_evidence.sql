ALTER TABLE "person_tracks" ADD COLUMN "kit_colour" text;--> statement-breakpoint
ALTER TABLE "person_tracks" ADD COLUMN "jersey_number" integer;--> statement-breakpoint
ALTER TABLE "person_tracks" ADD COLUMN "number_reads" integer DEFAULT 0 NOT NULL;