CREATE TABLE "deleted_users" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"row" jsonb NOT NULL,
	"role_ids" jsonb NOT NULL,
	"permission_ids" jsonb NOT NULL,
	"deleted_by" uuid,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"restorable_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deleted_users" ADD CONSTRAINT "deleted_users_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deleted_users_company_idx" ON "deleted_users" USING btree ("company_id","restorable_until");