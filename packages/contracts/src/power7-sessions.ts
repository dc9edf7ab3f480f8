import { z } from 'zod';
import { multiLineText, singleLineText } from './text';

/** A Power 7 analysis session: its parameters, its state and progress, and its name and note. */

const num = z.number();

export const sessionParamsSchema = z.object({
  budget_type: z.enum(['fixed', 'range']),
  budget: num.nullable(),
  budget_min: num.nullable(),
  budget_max: num.nullable(),
  payouts: z.object({ 3: num, 4: num, 5: num, 6: num, 7: num }),
  pool_size: z.number().int(),
  /** ISO 4217 code the amounts are in, when one was chosen (absent: none named). */
  currency: z.string().optional(),
});
export type SessionParams = z.infer<typeof sessionParamsSchema>;

export const SESSION_STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;
export type SessionStatus = (typeof SESSION_STATUSES)[number];

export const sessionSchema = z.object({
  _id: z.string(),
  status: z.enum(SESSION_STATUSES),
  phase: z.string(),
  progress: num,
  params: sessionParamsSchema,
  originalName: z.string().nullable(),
  fileBytes: num,
  counts: z.object({
    rowsRead: num.optional(),
    accepted: num.optional(),
    rejected: num.optional(),
    draws: num.optional(),
    drawsEvaluated: num.optional(),
    drawsQualified: num.optional(),
  }),
  timings: z.object({
    uploadMs: num.optional(),
    readMs: num.optional(),
    queuedMs: num.optional(),
    buildMs: num.optional(),
    scanMs: num.optional(),
    analysisMs: num.optional(),
    saveMs: num.optional(),
    totalMs: num.optional(),
    workers: num.optional(),
  }),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** When the session and its files are deleted (SESSION_TTL_HOURS after the upload). */
  expiresAt: z.string(),
  /** The session whose stored tickets this one re-ran with other parameters (null: an upload). */
  sourceSessionId: z.string().nullable().optional(),
  /** The analyst's own name and note for the session. */
  name: z.string().nullable().optional(),
  note: z.string().nullable().optional(),
  /** Rejected rows by kind of reason (`wrong field count`, `number out of range`, …). */
  rejectedReasons: z.record(z.string(), num).optional(),
});
export type Power7Session = z.infer<typeof sessionSchema>;

export const rejectedRowSchema = z.object({ line: num, reason: z.string(), raw: z.string() });
export type RejectedRowView = z.infer<typeof rejectedRowSchema>;

export const statusSchema = sessionSchema.extend({
  rejectedSample: z.array(rejectedRowSchema),
  rejectedReport: z.string().nullable(),
});
export type Power7Status = z.infer<typeof statusSchema>;

export const clearAllAnswerSchema = z.object({ deleted: z.number().int() });

/** Longest session name and note (characters). */
export const SESSION_NAME_MAX = 120;
export const SESSION_NOTE_MAX = 2000;

/** `PATCH /api/power7/sessions/:id/`: the session's name and note (empty text clears one). */
export const sessionEditSchema = z
  .strictObject({
    name: singleLineText().trim().max(SESSION_NAME_MAX).optional(),
    note: multiLineText().trim().max(SESSION_NOTE_MAX).optional(),
  })
  .refine((edit) => edit.name !== undefined || edit.note !== undefined, {
    message: 'Send a name, a note or both.',
  });
export type SessionEdit = z.input<typeof sessionEditSchema>;
