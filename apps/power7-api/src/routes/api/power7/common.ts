import { z } from 'zod';
import { MAX_PAGE_SIZE } from '@pa/contracts/list-query';
import type { Caller } from '../../../plugins/external/auth';

/** Shared parts of the Power 7 routes' schemas and answers. */
export const owner = (caller: Caller) => ({ userId: caller.userId, companyId: caller.companyId });
export const sessionQuery = z.object({ session: z.string().min(1).max(100).optional() });
export const pageQuery = {
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(10),
};
export const bearer = [{ bearerAuth: [] }];

/** A download file name: `power7-<combo>-match<M>.csv` or `power7-<combo>-all.csv`. */
export const attachment = (name: string) =>
  `attachment; filename="${name.replace(/[^0-9A-Za-z._-]/g, '_')}"`;
