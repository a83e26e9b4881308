CREATE TABLE "person_tracks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"footage_id" uuid NOT NULL,
	"start_s" real NOT NULL,
	"end_s" real NOT NULL,
	"boxes" "bytea" NOT NULL,
	"face_track_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"samples" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "person_tracks" ADD CONSTRAINT "person_tracks_footage_id_footage_id_fk" FOREIGN KEY ("footage_id") REFERENCES "public"."footage"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "person_tracks_footage_idx" ON "person_tracks" USING btree ("footage_id","start_s");