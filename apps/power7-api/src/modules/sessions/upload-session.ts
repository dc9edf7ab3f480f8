import { rm } from 'node:fs/promises';
import type { FastifyRequest } from 'fastify';
import { v7 as uuidv7 } from 'uuid';
import { UPLOAD_FILE } from './memory';
import type { NewSessionDeps } from './new-session';
import { readBytesBound, resultBytesBound } from './output-bound';
import type { Owner, SessionRow } from './state';
import { receiveUpload, type UploadOptions } from './upload';

/**
 * `POST /api/upload/`: the user's jobs in flight checked first (429 before the file is received for
 * nothing; the route adds its Retry-After), the multipart file and fields received into a new
 * session's folder, what the folder may take reserved against the quota, and the session's job
 * started. A file never recorded as a session does not stay on disk.
 */
export async function startUploadedSession(
  deps: NewSessionDeps & { uploads: UploadOptions },
  request: FastifyRequest,
  owner: Owner,
): Promise<{ id: string; row: SessionRow }> {
  const id = uuidv7();
  const dir = deps.sessions.memory.dirOf(id);
  const quota = await deps.quota.begin(owner);
  try {
    const upload = await receiveUpload(request, dir, UPLOAD_FILE, { ...deps.uploads, quota });
    // what the folder may take once done: the file, the read's files and the results at their
    // largest, for the most tickets the file can hold (ADR 019)
    const { params, maxTickets } = upload;
    const reserved =
      readBytesBound(upload.bytes, maxTickets) +
      resultBytesBound({
        pool: params.pool_size,
        tickets: maxTickets,
        params,
        countsStored: false,
      });
    try {
      const row = await quota.reserve(reserved, () =>
        deps.sessions.jobs.start(id, owner, params, {
          originalName: upload.originalName,
          bytes: upload.bytes,
          timings: { uploadMs: upload.uploadMs },
          arrived: upload.arrived,
          reservedBytes: reserved,
        }),
      );
      return { id, row };
    } catch (error) {
      // not recorded: its file must not stay on disk, unseen by the list and by clear-all
      upload.arrived?.read.abort();
      await rm(dir, { recursive: true, force: true });
      throw error;
    }
  } finally {
    quota.end();
  }
}
