import { createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { MultipartValue } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import { ErrorCode } from '@pa/contracts/error-codes';
import type { ApiErrorItem } from '@pa/contracts/envelope';
import { AppError } from '@pa/server-kit/errors';
import { uploadFormSchema, type SessionParams } from '@pa/contracts/power7';
import {
  CONTROL_CHARACTERS_MESSAGE,
  controlCharacterPath,
  visibleFileName,
} from '@pa/contracts/text';
import {
  ArrivingCsvRead,
  DEFAULT_POOL,
  MAX_POOL,
  MIN_POOL,
  sniffUpload,
  SNIFF_BYTES,
} from '@pa/power7-engine/session-store';
import type { ArrivingUpload } from './memory';
import { countLineFeeds, ticketsBound } from './output-bound';
import type { QuotaCount } from './quota';

/** The form fields the upload takes (besides the file): any other is refused, not ignored. */
const FORM_FIELDS: ReadonlySet<string> = new Set(Object.keys(uploadFormSchema.in.shape));

/**
 * Validates the upload's form fields with the shared form schema (the browser applies the same
 * one), collecting every problem with the field it belongs to.
 */
export function validateUploadFields(fields: Record<string, string>): SessionParams {
  const parsed = uploadFormSchema.safeParse(fields);
  if (parsed.success) return parsed.data;
  const errors: ApiErrorItem[] = parsed.error.issues.map((issue) => ({
    field: String(issue.path[0] ?? 'form'),
    message: issue.message,
    code: ErrorCode.VALIDATION_ERROR,
  }));
  throw new AppError(
    ErrorCode.VALIDATION_ERROR,
    `${errors[0]!.field}: ${errors[0]!.message}`,
    errors,
  );
}

export interface ReceivedUpload {
  params: SessionParams;
  originalName: string | null;
  bytes: number;
  /** Receiving the body, until the file is on disk. */
  uploadMs: number;
  /** The file read while it arrived (a CSV of 8 MiB or more, when asked for). */
  arrived?: ArrivingUpload;
  /** Most tickets the file can hold (its line feeds + 1, or Excel's rows for an XLSX). */
  maxTickets: number;
}

export interface UploadOptions {
  /** Counts the file against its user's storage quota as it arrives (throws 413 past it). */
  quota?: QuotaCount;
  /** Read a large CSV on this many worker threads while it arrives (unset: the job reads it). */
  readWhileArriving?: {
    workers: number;
    /**
     * Asks for a place for one more read held in memory: a function that gives it back, or null when
     * too many are held (the upload is then read by its job, from disk).
     */
    admit: () => (() => void) | null;
  };
}

/** Below this, a CSV is read in one pass by its job: ranges would cost more than they save. */
const READ_WHILE_ARRIVING_MIN_BYTES = 8 << 20;

/**
 * A read of the file as it arrives, when asked for and worth it (the body is large, or of unknown
 * size), for the pool the form has named so far (the job ignores it if the pool turns out otherwise).
 */
function arrivingRead(
  request: FastifyRequest,
  fields: Record<string, string>,
  options: UploadOptions,
): { read: ArrivingCsvRead; release: () => void } | null {
  if (!options.readWhileArriving) return null;
  const length = Number(request.headers['content-length']);
  if (length < READ_WHILE_ARRIVING_MIN_BYTES) return null;
  const pool = fields.pool_size === undefined ? DEFAULT_POOL : Number(fields.pool_size);
  if (!Number.isInteger(pool) || pool < MIN_POOL || pool > MAX_POOL) return null;
  const release = options.readWhileArriving.admit();
  if (!release) return null;
  const read = new ArrivingCsvRead({
    pool,
    workers: options.readWhileArriving.workers,
    // the reading threads count the tickets too: the job's analysis then starts from their counts
    count: true,
    ...(length > 0 ? { expectedBytes: length } : {}),
  });
  return { read, release };
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
 * the size limit and the user's storage quota end the stream with 413), the fields are checked as
 * they arrive and validated. A file whose first bytes already show it cannot be read (binary,
 * blank, a CSV header without number columns) is refused with 400 on `customer_file`: the rest of
 * its body is read and dropped, nothing is kept. Everything else about the file is found by the job
 * and reported in the session's status. On any failure the folder is removed, so a refused upload
 * leaves nothing behind.
 */
export async function receiveUpload(
  request: FastifyRequest,
  dir: string,
  fileName: string,
  options: UploadOptions = {},
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
  let arriving: ReturnType<typeof arrivingRead> = null;
  try {
    const fields: Record<string, string> = {};
    let originalName: string | null = null;
    let sawFile = false;
    const sniffer = new HeadSniffer();
    let head: Buffer | null = null;
    let lineFeeds = 0;
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'customer_file' || sawFile) {
          part.file.resume();
          throw fieldError(part.fieldname, ONE_FILE);
        }
        sawFile = true;
        if (controlCharacterPath(part.filename) !== null) {
          part.file.resume();
          throw fieldError('customer_file', `The file name ${CONTROL_CHARACTERS_MESSAGE}.`);
        }
        // kept and shown without bidi controls or zero-width characters (a name that reads as another)
        originalName = visibleFileName(part.filename ?? '').slice(0, 255) || null;
        arriving = arrivingRead(request, fields, options);
        const reader = arriving?.read;
        await pipeline(
          part.file,
          async function* (source: AsyncIterable<Buffer>) {
            for await (const chunk of source) {
              options.quota?.add(chunk.length);
              head ??= chunk.subarray(0, 4);
              lineFeeds += countLineFeeds(chunk);
              sniffer.push(chunk);
              // a refused file is read to its end (so the client gets its answer) but not stored
              if (sniffer.refusal) continue;
              const readerBusy = reader?.push(chunk);
              yield chunk;
              // the read keeps up with the upload, or the upload waits for it (memory stays bounded)
              if (readerBusy) await readerBusy;
            }
          },
          createWriteStream(target, { highWaterMark: 1 << 20 }),
        );
        sniffer.end();
      } else {
        fields[part.fieldname] = formField(part, fields);
      }
    }
    const params = validateUploadFields(fields);
    if (!sawFile) throw fieldError('customer_file', 'A customer file (CSV or XLSX) is required.');
    if (sniffer.refusal) throw fieldError('customer_file', sniffer.refusal.message);
    const bytes = (await stat(target)).size;
    if (bytes === 0) throw fieldError('customer_file', 'The customer file is empty.');
    return {
      params,
      originalName,
      bytes,
      uploadMs: Math.round(performance.now() - started),
      maxTickets: ticketsBound(head ?? Buffer.alloc(0), lineFeeds),
      ...(arriving ? { arrived: { read: arriving.read, result: arriving.read.end() } } : {}),
    };
  } catch (error) {
    arriving?.read.abort();
    await rm(dir, { recursive: true, force: true });
    throw multipartErrorToApp(error);
  } finally {
    // received (its job holds it now) or refused: no longer counted as receiving
    arriving?.release();
  }
}

const ONE_FILE = 'Only one file, named customer_file, is accepted.';

/**
 * One text field of the form, checked as it arrives: a field the form does not have, one sent twice
 * (which would otherwise silently win) and a control character are refused, naming the field.
 */
function formField(part: MultipartValue, fields: Record<string, string>): string {
  const { fieldname: name, value } = part;
  if (!FORM_FIELDS.has(name)) {
    throw fieldError(
      name.slice(0, 100),
      `Unknown form field "${name.slice(0, 100)}"; the form takes ${[...FORM_FIELDS].join(', ')} and customer_file.`,
    );
  }
  if (Object.hasOwn(fields, name)) throw fieldError(name, `The form field ${name} is sent twice.`);
  if (typeof value !== 'string') throw fieldError(name, `The form field ${name} must be text.`);
  if (part.valueTruncated) throw fieldError(name, `The form field ${name} is too long.`);
  if (controlCharacterPath(value) !== null) {
    throw fieldError(name, `${name}: ${CONTROL_CHARACTERS_MESSAGE}`);
  }
  return value;
}

/**
 * A failure while reading the form, as the client's answer. The multipart plugin's errors carry
 * `FST_*` codes; busboy reports a malformed body (cut short, a broken part header, a boundary that
 * does not match) as a plain `Error` without code (its messages differ by version and case, so they
 * are not matched). A disk error (with its code), an AppError (the quota, a field) or any other
 * failure passes as it is.
 */
function multipartErrorToApp(error: unknown): unknown {
  if (error instanceof AppError || !(error instanceof Error)) return error;
  const code = (error as { code?: unknown }).code;
  switch (code) {
    // the file limit is 1: a second file part (another customer_file or any other) is a bad form
    case 'FST_FILES_LIMIT':
      return fieldError('customer_file', ONE_FILE);
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new AppError(
        ErrorCode.VALIDATION_ERROR,
        'The upload form has too many fields: it takes the file and at most ten fields.',
      );
    case 'FST_REQ_FILE_TOO_LARGE':
      return new AppError(
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
  const fromBusboy = Object.getPrototypeOf(error) === Error.prototype && code === undefined;
  const fromPlugin = typeof code === 'string' && code.startsWith('FST_');
  if (fromBusboy || fromPlugin) {
    return new AppError(
      ErrorCode.VALIDATION_ERROR,
      'The upload form is malformed or incomplete (cut short, a broken part header or a boundary that does not match); send it again.',
    );
  }
  return error;
}

const fieldError = (field: string, message: string) =>
  new AppError(ErrorCode.VALIDATION_ERROR, message, [
    { field, message, code: ErrorCode.VALIDATION_ERROR },
  ]);
