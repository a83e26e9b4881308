CREATE TABLE "reel_renders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"stage" text,
	"progress" integer DEFAULT 0 NOT NULL,
	"error" text,
	"spotlight" boolean DEFAULT true NOT NULL,
	"clips" jsonb NOT NULL,
	"stats" jsonb,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "appearances" ADD COLUMN "track_ids" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "appearances" ADD COLUMN "decision" text;--> statement-breakpoint
ALTER TABLE "appearances" ADD COLUMN "position" integer;--> statement-breakpoint
ALTER TABLE "appearances" ADD COLUMN "manual" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "user_stills" ADD COLUMN "request_id" uuid;--> statement-breakpoint
ALTER TABLE "user_stills" ADD COLUMN "is_visible" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "user_stills" ADD COLUMN "render_id" uuid;--> statement-breakpoint
ALTER TABLE "user_videos" ADD COLUMN "render_id" uuid;--> statement-breakpoint
ALTER TABLE "reel_renders" ADD CONSTRAINT "reel_renders_request_id_highlight_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."highlight_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reel_renders" ADD CONSTRAINT "reel_renders_created_by_user_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."user"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reel_renders_request_idx" ON "reel_renders" USING btree ("request_id","created_at");--> statement-breakpoint
ALTER TABLE "user_stills" ADD CONSTRAINT "user_stills_request_id_highlight_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."highlight_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_videos_request_idx" ON "user_videos" USING btree ("request_id");