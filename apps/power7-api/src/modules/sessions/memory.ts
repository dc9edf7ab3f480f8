import { join } from 'node:path';
import { LRUCache } from 'lru-cache';
import type { ArrivedRead, ArrivingCsvRead, RejectedRow } from '@pa/power7-engine/session-store';
import type { SessionRow } from '../../db/schema';
import type { JobProgress } from '../jobs/job-queue';

/** The file an upload is streamed to inside its session folder, until ingest has read it. */
export const UPLOAD_FILE = 'upload.dat';

/** An upload's CSV read while it arrived, until its job takes it over. */
export interface ArrivingUpload {
  read: ArrivingCsvRead;
  result: Promise<ArrivedRead | null>;
}

/** Finished rows and rejected samples kept in memory (least recently used out first). */
const REMEMBERED_SESSIONS = 10_000;

/**
 * What this process knows of its sessions beyond the database row, shared by the job runner (which
 * writes it) and the queries (which read it), so status polls and result queries skip the database.
 */
export class SessionMemory {
  /** Latest progress of running jobs, so status polls never wait for the database. */
  readonly live = new Map<string, JobProgress>();
  /**
   * Rows of the queued and running sessions of this process, kept up to date by the job itself, so
   * the status polls of a running job cost no database read (they would compete with the job).
   */
  readonly activeRows = new Map<string, SessionRow>();
  /**
   * Rows of finished sessions: only their name and note change (`edited`), so filter / winners / download
   * calls skip the database round trip.
   */
  readonly finishedRows = new LRUCache<string, SessionRow>({ max: REMEMBERED_SESSIONS });
  /** First rejected rows of sessions whose file has been read (`ingest.json` never changes). */
  readonly samples = new LRUCache<string, RejectedRow[]>({ max: REMEMBERED_SESSIONS });
  /** Uploads read while they arrived, for their queued jobs (taken by the job, or dropped). */
  readonly arrived = new Map<string, ArrivingUpload>();
  /** Uploads being read while they arrive, not yet received. */
  receiving = 0;

  /**
   * `shared`: other processes run this installation's jobs and delete its sessions (the BullMQ
   * queue), so a row this process saw may have changed since: rows are then always read again.
   */
  constructor(
    readonly root: string,
    readonly shared = false,
  ) {}

  /** The session's folder under the sessions root. */
  dirOf(id: string): string {
    return join(this.root, id);
  }

  /** The row of a session of this process: finished, or queued / running. */
  row(id: string): SessionRow | undefined {
    if (this.shared) return undefined;
    return this.finishedRows.get(id) ?? this.activeRows.get(id);
  }

  /** Mirrors a change the analyst made (name, note) in the rows kept here. */
  edited(id: string, values: Partial<SessionRow>): void {
    const finished = this.finishedRows.get(id);
    if (finished) this.finishedRows.set(id, { ...finished, ...values });
    const active = this.activeRows.get(id);
    if (active) this.activeRows.set(id, { ...active, ...values });
  }

  /** Forgets a deleted session. */
  forget(id: string): void {
    this.finishedRows.delete(id);
    this.activeRows.delete(id);
    this.samples.delete(id);
    this.live.delete(id);
    this.dropArrived(id);
  }

  /** The read of a session's upload as it arrived, for its job; it is no longer kept here. */
  takeArrived(id: string): ArrivingUpload | undefined {
    const arrived = this.arrived.get(id);
    this.arrived.delete(id);
    return arrived;
  }

  /** Drops the read of an upload whose job will not take it (deleted, or not queued). */
  dropArrived(id: string): void {
    this.takeArrived(id)?.read.abort();
  }
}
