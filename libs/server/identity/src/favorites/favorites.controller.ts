import { Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  ApiDoc,
  Authenticated,
  AuthPrincipal,
  CurrentPrincipal,
  ZodBody,
  ZodParams,
  ZodQuery,
} from '@voltdepot/server-core';
import { IdentityErrorCodes } from '@voltdepot/shared-contracts';
import { z } from 'zod';
import { IdentityException } from '../identity.exception';
import { IdParams, idParamsSchema } from '../shared/schemas';
import { isUniqueViolation } from '../shared/sql';
import { FavoriteRepository } from './favorite.repository';
import { favoriteViewSchema, type FavoriteView } from './favorite.dto';

/** bId may arrive as a number or a string; it is stored as text. */
const favoriteSchema = z
  .object({
    bId: z.union([z.string().trim().min(1).max(64), z.number().int().transform(String)]),
    bType: z.string().trim().min(1).max(32),
    name: z.string().trim().min(1).max(128),
  })
  .strict();
const listQuerySchema = z.object({
  bType: z
    .string()
    .trim()
    .max(32)
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
});

/** The caller's own favourites (spec: POST /favorite/, DELETE /favorite/{id}). */
@ApiTags('favorites')
@ApiBearerAuth()
@Authenticated()
@Controller('favorite')
export class FavoritesController {
  constructor(private readonly favorites: FavoriteRepository) {}

  @ApiDoc({ summary: "The caller's favourites", response: z.array(favoriteViewSchema) })
  @Get()
  list(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodQuery(listQuerySchema) q: z.infer<typeof listQuerySchema>,
  ): Promise<FavoriteView[]> {
    return this.favorites.list(me.userId, q.bType);
  }

  @ApiDoc({ response: favoriteViewSchema, errors: [409] })
  @Post()
  async add(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodBody(favoriteSchema) dto: z.infer<typeof favoriteSchema>,
  ): Promise<FavoriteView> {
    try {
      return await this.favorites.insert(me.userId, dto);
    } catch (error) {
      if (isUniqueViolation(error, 'sys_favorite_business_uq')) {
        throw new IdentityException(
          IdentityErrorCodes.FavoriteExists,
          `'${dto.name}' is already a favourite`,
        );
      }
      throw error;
    }
  }

  @ApiDoc({ errors: [404] })
  @Delete(':id')
  @HttpCode(204)
  async remove(@CurrentPrincipal() me: AuthPrincipal, @ZodParams(idParamsSchema) p: IdParams): Promise<void> {
    if (!(await this.favorites.delete(me.userId, p.id))) {
      throw new IdentityException(IdentityErrorCodes.FavoriteNotFound, `Favourite ${p.id} does not exist`);
    }
  }
}
