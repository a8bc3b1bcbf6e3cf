import { Controller, Delete, Get, HttpCode, Inject, Post, Put, type Type } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  ApiDoc,
  AuthPrincipal,
  CurrentPrincipal,
  RequirePermissions,
  ZodBody,
  ZodParams,
  ZodQuery,
} from '@voltdepot/server-core';
import type { GridPage } from '@voltdepot/shared-contracts';
import { z } from 'zod';
import type { AssetDefinition, AssetFilter, AssetValues, AssetView } from './asset-definition';
import type { AssetCrudService } from './asset-crud.service';
import { IdParams, idParamsSchema, PageParams, pageParamsSchema } from './fields';
import { assetViewSchemas } from './asset-view-schema';

/** The query-string value of each kind of grid filter. */
const FILTER_SCHEMAS: Record<AssetFilter['kind'], z.ZodTypeAny> = {
  int: z.coerce.number().int().min(-2_147_483_648).max(2_147_483_647).optional(),
  text: z.string().trim().max(64).optional(),
  like: z.string().trim().max(64).optional(),
  bool: z
    .enum(['true', 'false'], { errorMap: () => ({ message: 'must be true or false' }) })
    .transform((v) => v === 'true')
    .optional(),
};

/** Grid query string of a definition: '' counts as absent; ids and codes are numbers, flags booleans. */
export function filterSchema(def: AssetDefinition): z.ZodTypeAny {
  const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);
  return z.object(
    Object.fromEntries(
      def.filters.map((f) => [f.field, z.preprocess(blankToUndefined, FILTER_SCHEMAS[f.kind])]),
    ),
  );
}

export function serviceToken(kind: string): string {
  return `ASSET_SERVICE:${kind}`;
}

function pascal(kind: string): string {
  return kind.charAt(0).toUpperCase() + kind.slice(1);
}

/**
 * The five routes of a basic-data grid, guarded by `<permission>:query|add|edit|delete`:
 * `GET /api/<kind>/page/{page}/size/{size}`, `GET /api/<kind>/{id}`, `POST /api/<kind>`,
 * `PUT /api/<kind>/{id}` (the whole record) and `DELETE /api/<kind>/{id}`.
 */
export function assetCrudController(def: AssetDefinition): Type {
  const p = def.permission;
  const query = filterSchema(def);
  const views = assetViewSchemas(def);

  @ApiTags(`basic: ${def.kind}`)
  @ApiBearerAuth()
  @Controller(`api/${def.kind}`)
  class AssetCrudController {
    constructor(@Inject(serviceToken(def.kind)) private readonly service: AssetCrudService) {}

    @ApiDoc({ response: views.page })
    @Get('page/:page/size/:size')
    @RequirePermissions(`${p}:query`)
    page(
      @CurrentPrincipal() me: AuthPrincipal,
      @ZodParams(pageParamsSchema) params: PageParams,
      @ZodQuery(query) filter: Record<string, unknown>,
    ): Promise<GridPage<AssetView>> {
      return this.service.page(me, filter, params.page, params.size);
    }

    @ApiDoc({ response: views.row, errors: [404] })
    @Get(':id')
    @RequirePermissions(`${p}:query`)
    get(
      @CurrentPrincipal() me: AuthPrincipal,
      @ZodParams(idParamsSchema) params: IdParams,
    ): Promise<AssetView> {
      return this.service.get(me, params.id);
    }

    @ApiDoc({ response: views.row, errors: [404, 409, 422] })
    @Post()
    @RequirePermissions(`${p}:add`)
    create(
      @CurrentPrincipal() me: AuthPrincipal,
      @ZodBody(def.createSchema) dto: AssetValues,
    ): Promise<AssetView> {
      return this.service.create(me, dto);
    }

    @ApiDoc({ response: views.row, errors: [404, 409, 422] })
    @Put(':id')
    @RequirePermissions(`${p}:edit`)
    update(
      @CurrentPrincipal() me: AuthPrincipal,
      @ZodParams(idParamsSchema) params: IdParams,
      @ZodBody(def.updateSchema) dto: AssetValues,
    ): Promise<AssetView> {
      return this.service.update(me, params.id, dto);
    }

    @ApiDoc({ errors: [404, 409] })
    @Delete(':id')
    @HttpCode(204)
    @RequirePermissions(`${p}:delete`)
    async remove(
      @CurrentPrincipal() me: AuthPrincipal,
      @ZodParams(idParamsSchema) params: IdParams,
    ): Promise<void> {
      await this.service.remove(me, params.id);
    }
  }
  Object.defineProperty(AssetCrudController, 'name', { value: `${pascal(def.kind)}Controller` });
  return AssetCrudController;
}
