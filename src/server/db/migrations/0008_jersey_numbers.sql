ALTER TABLE "appearances" ADD COLUMN "jersey_seen" integer;--> statement-breakpoint
ALTER TABLE "face_tracks" ADD COLUMN "jersey_number" integer;