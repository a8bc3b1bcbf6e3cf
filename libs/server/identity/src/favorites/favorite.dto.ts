import { apiSchemas, exactly, view } from '@voltdepot/server-core';
import type { FavoriteView } from '@voltdepot/shared-contracts';
import { z } from 'zod';

export const favoriteViewSchema = apiSchemas.named(
  'FavoriteView',
  exactly<FavoriteView>()(
    view({
      id: z.number().int(),
      bId: z.string(),
      bType: z.string(),
      name: z.string(),
      createdAt: z.string(),
    }),
  ),
);
