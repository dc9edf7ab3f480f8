CREATE INDEX "email_change_tokens_old_email_idx" ON "email_change_tokens" USING btree ("old_email");
