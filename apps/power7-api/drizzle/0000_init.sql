CREATE TABLE "power7_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"company_id" text NOT NULL,
	"status" text NOT NULL,
	"phase" text NOT NULL,
	"progress" real DEFAULT 0 NOT NULL,
	"params" jsonb NOT NULL,
	"original_name" text,
	"file_bytes" integer DEFAULT 0 NOT NULL,
	"counts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"error" jsonb,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "power7_sessions_owner_idx" ON "power7_sessions" USING btree ("company_id","user_id","created_at");--> statement-breakpoint
CREATE INDEX "power7_sessions_status_idx" ON "power7_sessions" USING btree ("status");--> statement-breakpoint
CREATE INDEX "power7_sessions_expires_idx" ON "power7_sessions" USING btree ("expires_at");