import { Controller, Get, Inject, Put } from '@nestjs/common';
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
import type { AssetValues, AssetView } from '../shared/asset-definition';
import { filterSchema, serviceToken } from '../shared/asset-crud.controller';
import type { AssetCrudService } from '../shared/asset-crud.service';
import { IdParams, idParamsSchema, PageParams, pageParamsSchema } from '../shared/fields';
import { stationFeeDefinition } from './station-fee.definition';
import { assetViewSchemas } from '../shared/asset-view-schema';

const query = filterSchema(stationFeeDefinition);
const views = assetViewSchemas(stationFeeDefinition);

/** Fee and occupation rules of the stations: list, read and change (no add or delete here). */
@ApiTags('basic: stationFee')
@ApiBearerAuth()
@Controller('api/stationFee')
export class StationFeeController {
  constructor(@Inject(serviceToken('stationFee')) private readonly service: AssetCrudService) {}

  @ApiDoc({ response: views.page })
  @Get('page/:page/size/:size')
  @RequirePermissions('basic:stationFee:query')
  page(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(pageParamsSchema) params: PageParams,
    @ZodQuery(query) filter: Record<string, unknown>,
  ): Promise<GridPage<AssetView>> {
    return this.service.page(me, filter, params.page, params.size);
  }

  @ApiDoc({ response: views.row, errors: [404] })
  @Get(':id')
  @RequirePermissions('basic:stationFee:query')
  get(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(idParamsSchema) params: IdParams,
  ): Promise<AssetView> {
    return this.service.get(me, params.id);
  }

  @ApiDoc({ response: views.row, errors: [404, 409, 422] })
  @Put(':id')
  @RequirePermissions('basic:stationFee:edit')
  update(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(idParamsSchema) params: IdParams,
    @ZodBody(stationFeeDefinition.updateSchema) dto: AssetValues,
  ): Promise<AssetView> {
    return this.service.update(me, params.id, dto);
  }
}
