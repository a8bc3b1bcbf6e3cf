import { z } from 'zod';
import { entityId } from '../shared/grid';

const idList = z.array(entityId).min(1, 'please tick at least one row').max(1000);

/** `POST inbox/read` and `inbox/del`: the ids as a bare array or as `{ ids }`. */
export const inboxIdsSchema = z.union([idList, z.object({ ids: idList }).transform((b) => b.ids)]);

export const inboxPageQuerySchema = z.object({
  start: z.string().optional().describe('yyyy-MM-dd HH:mm:ss (business time zone), inclusive'),
  end: z.string().optional().describe('yyyy-MM-dd HH:mm:ss (business time zone), inclusive'),
});
