import { Controller, Get, Inject, Post, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  AuthPrincipal,
  CurrentPrincipal,
  type HttpResponse,
  RequirePermissions,
  ZodBody,
  ZodParams,
  ZodQuery,
} from '@voltdepot/server-core';
import type { GridPage } from '@voltdepot/shared-contracts';
import { z } from 'zod';
import type { AssetView } from '../shared/asset-definition';
import { filterSchema, serviceToken } from '../shared/asset-crud.controller';
import type { AssetCrudService } from '../shared/asset-crud.service';
import { AssetRepository } from '../shared/asset.repository';
import { PageParams, pageParamsSchema } from '../shared/fields';
import { attachmentDisposition, type ExportColumn, writeXlsx, XLSX_CONTENT_TYPE } from '../shared/xlsx';
import type { UnknownPileAttempt } from './gateway-registry.repository';
import { pileDefinition } from './piles.definition';
import {
  chargePointIdParamsSchema,
  HostSelectionDto,
  hostSelectionSchema,
  RegisterUnknownPileDto,
  registerUnknownPileSchema,
} from './piles.dto';
import { PilesService } from './piles.service';

const DEVICE_STATUS_TEXT: Record<number, Record<'zh-CN' | 'en-US', string>> = {
  1: { 'zh-CN': '建设中', 'en-US': 'Under construction' },
  5: { 'zh-CN': '离线停用', 'en-US': 'Offline and disabled' },
  6: { 'zh-CN': '长期维护', 'en-US': 'Long-term maintenance' },
  50: { 'zh-CN': '验收后正常', 'en-US': 'Normal after acceptance' },
};

function pileColumns(language: 'zh-CN' | 'en-US'): ExportColumn[] {
  return [
    { field: 'number', header: { 'zh-CN': '编号', 'en-US': 'Number' } },
    { field: 'name', header: { 'zh-CN': '名称', 'en-US': 'Name' } },
    { field: 'chargePointId', header: { 'zh-CN': 'OCPP 标识', 'en-US': 'Charge point id' }, width: 24 },
    { field: 'stationName', header: { 'zh-CN': '充电站', 'en-US': 'Station' }, width: 24 },
    { field: 'type', header: { 'zh-CN': '类型', 'en-US': 'Type' }, width: 8 },
    { field: 'maxPowerW', header: { 'zh-CN': '最大功率(W)', 'en-US': 'Maximum power (W)' } },
    { field: 'ratedPowerW', header: { 'zh-CN': '额定功率(W)', 'en-US': 'Rated power (W)' } },
    {
      field: 'deviceStatus',
      header: { 'zh-CN': '设备状态', 'en-US': 'Device status' },
      format: (v) => DEVICE_STATUS_TEXT[Number(v)]?.[language] ?? String(v),
    },
    { field: 'manufacturerName', header: { 'zh-CN': '厂家', 'en-US': 'Manufacturer' } },
    { field: 'gunCount', header: { 'zh-CN': '接口数', 'en-US': 'Guns' }, width: 8 },
    { field: 'protocolVersion', header: { 'zh-CN': '协议版本', 'en-US': 'Protocol version' } },
    { field: 'gatewayState', header: { 'zh-CN': '网关状态', 'en-US': 'Gateway state' } },
  ];
}

const exportQuerySchema = (filterSchema(pileDefinition) as z.AnyZodObject).extend({
  lang: z.enum(['zh-CN', 'en-US']).default('zh-CN'),
});

/**
 * Charging-host routes beyond the grid. Registered before the grid's controller, so that `export`
 * is not taken for an `:id`.
 */
@ApiTags('basic: pile')
@ApiBearerAuth()
@Controller('api/pile')
export class PilesController {
  constructor(
    @Inject(PilesService) private readonly piles: PilesService,
    @Inject(serviceToken('pile')) private readonly crud: AssetCrudService,
    @Inject(AssetRepository) private readonly repository: AssetRepository,
  ) {}

  /** The filtered host list as .xlsx (formula-like cells escaped). */
  @Get('export')
  @RequirePermissions('basic:host:export')
  async export(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodQuery(exportQuerySchema) query: Record<string, unknown> & { lang: 'zh-CN' | 'en-US' },
    @Res() res: HttpResponse,
  ): Promise<void> {
    const { lang, ...filter } = query;
    const scope = await this.crud.scopeOf(me);
    const name = lang === 'zh-CN' ? '充电主机.xlsx' : 'charging-hosts.xlsx';
    res.setHeader('content-type', XLSX_CONTENT_TYPE);
    res.setHeader('content-disposition', attachmentDisposition(name));
    await writeXlsx(
      res,
      'hosts',
      pileColumns(lang),
      this.repository.batches(pileDefinition, scope, filter),
      lang,
    );
  }

  @Post('batch/enable')
  @RequirePermissions('basic:host:enable')
  enable(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodBody(hostSelectionSchema) dto: HostSelectionDto,
  ): Promise<{ updated: number }> {
    return this.piles.setEnabled(me, dto.ids, true);
  }

  @Post('batch/disable')
  @RequirePermissions('basic:host:enable')
  disable(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodBody(hostSelectionSchema) dto: HostSelectionDto,
  ): Promise<{ updated: number }> {
    return this.piles.setEnabled(me, dto.ids, false);
  }

  /** Charge points the gateway turned away because no host has their id. */
  @Get('unknown/page/:page/size/:size')
  @RequirePermissions('basic:host:unknown')
  unknown(@ZodParams(pageParamsSchema) params: PageParams): Promise<GridPage<UnknownPileAttempt>> {
    return this.piles.unknownPage(params.page, params.size);
  }

  @Post('unknown/:chargePointId/register')
  @RequirePermissions('basic:host:add')
  register(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(chargePointIdParamsSchema) params: { chargePointId: string },
    @ZodBody(registerUnknownPileSchema) dto: RegisterUnknownPileDto,
  ): Promise<{ pile: AssetView; ocppPassword: string }> {
    return this.piles.register(me, params.chargePointId, dto);
  }
}
