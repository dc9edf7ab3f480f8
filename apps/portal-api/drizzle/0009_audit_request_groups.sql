ALTER TABLE "audit_events" ADD COLUMN "request_id" uuid;--> statement-breakpoint
CREATE INDEX "audit_events_request_idx" ON "audit_events" USING btree ("company_id","request_id");