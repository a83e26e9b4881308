CREATE TABLE "person_labels" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"person_track_id" uuid NOT NULL,
	"is_athlete" boolean NOT NULL,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "person_labels" ADD CONSTRAINT "person_labels_request_id_highlight_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."highlight_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "person_labels" ADD CONSTRAINT "person_labels_person_track_id_person_tracks_id_fk" FOREIGN KEY ("person_track_id") REFERENCES "public"."person_tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "person_labels" ADD CONSTRAINT "person_labels_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "person_labels_request_track_idx" ON "person_labels" USING btree ("request_id","person_track_id");