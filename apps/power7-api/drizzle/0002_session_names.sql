ALTER TABLE "power7_sessions" ADD COLUMN "source_session_id" text;--> statement-breakpoint
ALTER TABLE "power7_sessions" ADD COLUMN "name" text;--> statement-breakpoint
ALTER TABLE "power7_sessions" ADD COLUMN "note" text;