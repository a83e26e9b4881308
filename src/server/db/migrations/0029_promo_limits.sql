ALTER TABLE "promo_codes" ADD COLUMN "expires_on" date;--> statement-breakpoint
ALTER TABLE "promo_codes" ADD COLUMN "max_uses" integer;