CREATE TABLE "appearances" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"footage_id" uuid NOT NULL,
	"game_id" text NOT NULL,
	"camera" text NOT NULL,
	"start_s" real NOT NULL,
	"end_s" real NOT NULL,
	"confidence" real NOT NULL,
	"distance" real NOT NULL,
	"face_height" integer NOT NULL,
	"unsure" boolean DEFAULT false NOT NULL,
	"lookalike" boolean DEFAULT false NOT NULL,
	"track_id" uuid,
	"rank" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "athlete_references" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" text NOT NULL,
	"source" text NOT NULL,
	"photo_key" text,
	"embedding" "bytea",
	"face_height" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "face_detections" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"track_id" uuid NOT NULL,
	"t" real NOT NULL,
	"x" integer NOT NULL,
	"y" integer NOT NULL,
	"w" integer NOT NULL,
	"h" integer NOT NULL,
	"score" real NOT NULL,
	"quality" real NOT NULL
);
--> statement-breakpoint
CREATE TABLE "face_tracks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"footage_id" uuid NOT NULL,
	"start_s" real NOT NULL,
	"end_s" real NOT NULL,
	"best_s" real NOT NULL,
	"box" jsonb NOT NULL,
	"face_height" integer NOT NULL,
	"score" real NOT NULL,
	"quality" real NOT NULL,
	"embeddings" "bytea" NOT NULL,
	"thumbnail" "bytea"
);
--> statement-breakpoint
CREATE TABLE "footage" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" text NOT NULL,
	"game_id" text NOT NULL,
	"camera" text NOT NULL,
	"original_name" text,
	"source_key" text NOT NULL,
	"size_bytes" bigint NOT NULL,
	"duration_seconds" real,
	"width" integer,
	"height" integer,
	"fps" real,
	"index_state" text DEFAULT 'queued' NOT NULL,
	"index_progress" integer DEFAULT 0 NOT NULL,
	"index_error" text,
	"indexed_at" timestamp with time zone,
	"sample_fps" real,
	"index_stats" jsonb,
	"uploaded_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event_games" ADD COLUMN "court" text;--> statement-breakpoint
ALTER TABLE "event_games" ADD COLUMN "starts_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "event_games" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "highlight_requests" ADD COLUMN "matching_state" text;--> statement-breakpoint
ALTER TABLE "highlight_requests" ADD COLUMN "matched_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "highlight_requests" ADD COLUMN "lookalike" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "user_profiles" ADD COLUMN "face_match_consent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "appearances" ADD CONSTRAINT "appearances_request_id_highlight_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."highlight_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appearances" ADD CONSTRAINT "appearances_footage_id_footage_id_fk" FOREIGN KEY ("footage_id") REFERENCES "public"."footage"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appearances" ADD CONSTRAINT "appearances_track_id_face_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."face_tracks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "athlete_references" ADD CONSTRAINT "athlete_references_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "face_detections" ADD CONSTRAINT "face_detections_track_id_face_tracks_id_fk" FOREIGN KEY ("track_id") REFERENCES "public"."face_tracks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "face_tracks" ADD CONSTRAINT "face_tracks_footage_id_footage_id_fk" FOREIGN KEY ("footage_id") REFERENCES "public"."footage"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "footage" ADD CONSTRAINT "footage_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "footage" ADD CONSTRAINT "footage_game_id_event_games_id_fk" FOREIGN KEY ("game_id") REFERENCES "public"."event_games"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "footage" ADD CONSTRAINT "footage_uploaded_by_user_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "appearances_request_idx" ON "appearances" USING btree ("request_id","rank");--> statement-breakpoint
CREATE INDEX "athlete_references_user_idx" ON "athlete_references" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "face_detections_track_idx" ON "face_detections" USING btree ("track_id","t");--> statement-breakpoint
CREATE INDEX "face_tracks_footage_idx" ON "face_tracks" USING btree ("footage_id");--> statement-breakpoint
CREATE INDEX "footage_game_idx" ON "footage" USING btree ("game_id","camera");--> statement-breakpoint
CREATE INDEX "footage_event_idx" ON "footage" USING btree ("event_id");