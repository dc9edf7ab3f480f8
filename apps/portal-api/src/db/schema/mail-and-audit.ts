import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { id, createdAt, companyRef } from './common';

/** Every message the mailer sent (or wrote to the outbox folder). */
export const mailOutbox = pgTable('mail_outbox', {
  id: id(),
  to: text('to').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  transport: text('transport').notNull(),
  file: text('file'),
  createdAt: createdAt(),
  sentAt: timestamp('sent_at', { withTimezone: true }),
  error: text('error'),
});

/** Who did what, when, from where; before/after hold changed fields only, never secrets. */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: id(),
    companyId: companyRef(),
    actorId: uuid('actor_id'),
    actorName: text('actor_name').notNull().default(''),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id'),
    before: jsonb('before').$type<Record<string, unknown> | null>(),
    after: jsonb('after').$type<Record<string, unknown> | null>(),
    ip: text('ip').notNull().default(''),
    userAgent: text('user_agent').notNull().default(''),
    /** One id for every event one request recorded (a bulk change, an import); null when alone. */
    requestId: uuid('request_id'),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_events_company_idx').on(t.companyId, t.id),
    index('audit_events_request_idx').on(t.companyId, t.requestId),
  ],
);
