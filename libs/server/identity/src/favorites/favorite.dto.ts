import { apiSchemas, view } from '@voltdepot/server-core';
import { z } from 'zod';

export const favoriteViewSchema = apiSchemas.named(
  'FavoriteView',
  view({
    id: z.number().int(),
    bId: z.string(),
    bType: z.string(),
    name: z.string(),
    createdAt: z.string(),
  }),
);
export type FavoriteView = z.infer<typeof favoriteViewSchema>;
