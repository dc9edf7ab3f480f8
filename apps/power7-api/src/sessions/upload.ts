import { createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { ErrorCode } from '@pa/contracts/error-codes';
import type { ApiErrorItem } from '@pa/contracts/envelope';
import { AppError } from '@pa/server-kit/errors';
import {
  DEFAULT_POOL,
  MAX_POOL,
  MIN_POOL,
  sniffUpload,
  SNIFF_BYTES,
} from '@pa/power7-engine/session-store';
import type { SessionParams } from './repository';

export const MATCH_FIELDS = ['payout_3', 'payout_4', 'payout_5', 'payout_6', 'payout_7'] as const;
const MAX_AMOUNT = 1e12;

/** Largest file field name etc.; a form field longer than this is not one of ours. */
const FIELD_LIMIT = 1_000;

/**
 * Validates the upload's form fields, collecting every problem with the field it belongs to
 * (PRODUCT.md §5: budget by type, min ≤ max, payouts ≥ 0 with at least one > 0, pool 8..49).
 */
export function validateUploadFields(fields: Record<string, string>): SessionParams {
  const errors: ApiErrorItem[] = [];
  const add = (field: string, message: string) =>
    errors.push({ field, message, code: ErrorCode.VALIDATION_ERROR });
  const money = (field: string, what: string, required: boolean): number | null => {
    const text = fields[field]?.trim() ?? '';
    if (text === '') {
      if (required) add(field, `${what} is required.`);
      return null;
    }
    const value = Number(text);
    if (!/^[+]?(\d+(\.\d*)?|\.\d+)$/.test(text) || !Number.isFinite(value)) {
      add(field, `${what} must be a number ≥ 0.`);
      return null;
    }
    if (value > MAX_AMOUNT) {
      add(field, `${what} must not exceed ${MAX_AMOUNT}.`);
      return null;
    }
    if (Math.abs(Math.round(value * 100) - value * 100) > 1e-6 * Math.max(1, value)) {
      add(field, `${what} may have at most two decimals.`);
      return null;
    }
    return value;
  };

  const type = fields.budget_type?.trim();
  let budget: number | null = null;
  let budgetMin: number | null = null;
  let budgetMax: number | null = null;
  if (type === 'fixed') {
    budget = money('budget', 'The budget', true);
  } else if (type === 'range') {
    budgetMin = money('budget_min', 'The minimum budget', true);
    budgetMax = money('budget_max', 'The maximum budget', true);
    if (budgetMin !== null && budgetMax !== null && budgetMin > budgetMax) {
      add('budget_max', 'The maximum budget must not be less than the minimum budget.');
    }
  } else {
    add('budget_type', 'The budget type must be "fixed" or "range".');
  }

  const payouts = MATCH_FIELDS.map((field, i) =>
    money(field, `The payout for ${i + 3} matches`, true),
  );
  if (payouts.every((p) => p !== null) && payouts.every((p) => p === 0)) {
    add('payout_3', 'At least one payout must be greater than 0.');
  }

  let pool = DEFAULT_POOL;
  const poolText = fields.pool_size?.trim() ?? '';
  if (poolText !== '') {
    pool = Number(poolText);
    if (!/^\d+$/.test(poolText) || pool < MIN_POOL || pool > MAX_POOL) {
      add('pool_size', `The pool size must be a whole number from ${MIN_POOL} to ${MAX_POOL}.`);
    }
  }

  if (errors.length) {
    throw new AppError(
      ErrorCode.VALIDATION_ERROR,
      `${errors[0]!.field}: ${errors[0]!.message}`,
      errors,
    );
  }
  const [p3, p4, p5, p6, p7] = payouts as number[];
  return {
    budget_type: type as 'fixed' | 'range',
    budget,
    budget_min: budgetMin,
    budget_max: budgetMax,
    payouts: { 3: p3!, 4: p4!, 5: p5!, 6: p6!, 7: p7! },
    pool_size: pool,
  };
}

export interface ReceivedUpload {
  params: SessionParams;
  originalName: string | null;
  bytes: number;
  /** Receiving the body, until the file is on disk. */
  uploadMs: number;
}

/**
 * Watches the first bytes of the file as they stream by: `refusal` is set as soon as they show the
 * file cannot be read (binary, blank, a CSV header without number columns; see `sniffUpload`).
 */
class HeadSniffer {
  private head: Buffer[] = [];
  private bytes = 0;
  private decided = false;
  refusal: Error | null = null;

  push(chunk: Buffer): void {
    if (this.decided) return;
    this.head.push(chunk);
    this.bytes += chunk.length;
    if (this.bytes >= SNIFF_BYTES) this.decide(false);
  }

  /** The file has ended (a file shorter than the sniffed head is decided now). */
  end(): void {
    if (!this.decided) this.decide(true);
  }

  private decide(complete: boolean): void {
    this.decided = true;
    this.refusal = sniffUpload(Buffer.concat(this.head), complete);
    this.head = [];
  }
}

/**
 * Reads the multipart upload: the file is streamed to `${dir}/${fileName}` (never held in memory;
 * the size limit ends the stream with 413), the fields are validated. A file whose first bytes
 * already show it cannot be read (binary, blank, a CSV header without number columns) is refused
 * with 400 on `customer_file`: the rest of its body is read and dropped, nothing is kept. Everything
 * else about the file is found by the job and reported in the session's status. On any failure the
 * folder is removed, so a refused upload leaves nothing behind.
 */
export async function receiveUpload(
  request: FastifyRequest,
  dir: string,
  fileName: string,
): Promise<ReceivedUpload> {
  if (!request.isMultipart()) {
    throw new AppError(
      ErrorCode.UNSUPPORTED_MEDIA_TYPE,
      'The upload must be a multipart/form-data form.',
    );
  }
  const started = performance.now();
  await mkdir(dir, { recursive: true });
  const target = join(dir, fileName);
  try {
    const fields: Record<string, string> = {};
    let originalName: string | null = null;
    let sawFile = false;
    const sniffer = new HeadSniffer();
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'customer_file' || sawFile) {
          part.file.resume();
          throw fieldError(part.fieldname, ONE_FILE);
        }
        sawFile = true;
        originalName = part.filename ? part.filename.slice(0, 255) : null;
        await pipeline(
          part.file,
          async function* (source: AsyncIterable<Buffer>) {
            for await (const chunk of source) {
              sniffer.push(chunk);
              // a refused file is read to its end (so the client gets its answer) but not stored
              if (!sniffer.refusal) yield chunk;
            }
          },
          createWriteStream(target, { highWaterMark: 1 << 20 }),
        );
        sniffer.end();
      } else if (typeof part.value === 'string' && part.fieldname.length < FIELD_LIMIT) {
        fields[part.fieldname] = part.value;
      }
    }
    const params = validateUploadFields(fields);
    if (!sawFile) throw fieldError('customer_file', 'A customer file (CSV or XLSX) is required.');
    if (sniffer.refusal) throw fieldError('customer_file', sniffer.refusal.message);
    const bytes = (await stat(target)).size;
    if (bytes === 0) throw fieldError('customer_file', 'The customer file is empty.');
    return { params, originalName, bytes, uploadMs: Math.round(performance.now() - started) };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    const code = (error as { code?: string }).code;
    // the file limit is 1: a second file part (another customer_file or any other) is a bad form
    if (code === 'FST_FILES_LIMIT') throw fieldError('customer_file', ONE_FILE);
    if (isTruncatedForm(error)) {
      throw new AppError(
        ErrorCode.VALIDATION_ERROR,
        'The upload form is incomplete: its body ended before the closing boundary.',
      );
    }
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError(
        ErrorCode.PAYLOAD_TOO_LARGE,
        'The customer file is larger than this service accepts.',
        [
          {
            field: 'customer_file',
            message: 'The customer file is too large.',
            code: ErrorCode.PAYLOAD_TOO_LARGE,
          },
        ],
      );
    }
    throw error;
  }
}

const ONE_FILE = 'Only one file, named customer_file, is accepted.';

/**
 * Busboy's errors for a body that ends inside the form (no closing boundary) or has no boundary; they
 * carry no code, only these messages. Anything else (a disk error) stays a 500.
 */
const isTruncatedForm = (error: unknown) =>
  error instanceof Error &&
  !('code' in error) &&
  /unexpected end of multipart data|^Multipart: Boundary not found$/.test(error.message);

const fieldError = (field: string, message: string) =>
  new AppError(ErrorCode.VALIDATION_ERROR, message, [
    { field, message, code: ErrorCode.VALIDATION_ERROR },
  ]);
