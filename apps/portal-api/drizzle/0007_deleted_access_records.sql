CREATE TABLE "deleted_access_records" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"row" jsonb NOT NULL,
	"role_ids" jsonb NOT NULL,
	"permission_ids" jsonb NOT NULL,
	"user_ids" jsonb NOT NULL,
	"deleted_by" uuid,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"restorable_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deleted_access_records" ADD CONSTRAINT "deleted_access_records_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "deleted_access_records_company_idx" ON "deleted_access_records" USING btree ("company_id","restorable_until");