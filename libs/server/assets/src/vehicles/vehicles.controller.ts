import { Controller, Get, Inject, Post, Res, UploadedFile, UseInterceptors } from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBearerAuth, ApiConsumes, ApiTags } from '@nestjs/swagger';
import {
  AuthPrincipal,
  CurrentPrincipal,
  type HttpResponse,
  RequirePermissions,
  ZodQuery,
} from '@voltdepot/server-core';
import { z } from 'zod';
import { filterSchema } from '../shared/asset-crud.controller';
import { AssetRepository } from '../shared/asset.repository';
import { attachmentDisposition, type ExportColumn, writeXlsx, XLSX_CONTENT_TYPE } from '../shared/xlsx';
import { vehicleDefinition } from './vehicles.definition';
import { IMPORT_MAX_BYTES, type UploadedSpreadsheet, VehiclesService } from './vehicles.service';

const VEHICLE_COLUMNS: ExportColumn[] = [
  { field: 'vin', header: { 'zh-CN': '车架号', 'en-US': 'VIN' }, width: 22 },
  { field: 'plate', header: { 'zh-CN': '车牌号', 'en-US': 'License plate' } },
  { field: 'selfNumber', header: { 'zh-CN': '自编号', 'en-US': 'Self number' } },
  { field: 'manufacturerName', header: { 'zh-CN': '厂家', 'en-US': 'Manufacturer' } },
  { field: 'companyName', header: { 'zh-CN': '公司', 'en-US': 'Company' } },
  { field: 'fleetName', header: { 'zh-CN': '车队', 'en-US': 'Fleet' } },
  { field: 'lineName', header: { 'zh-CN': '线路', 'en-US': 'Line' } },
  { field: 'batteryCapacityWh', header: { 'zh-CN': '电池容量(Wh)', 'en-US': 'Battery capacity (Wh)' } },
  { field: 'vehicleModel', header: { 'zh-CN': '车型', 'en-US': 'Vehicle model' } },
];

const exportQuerySchema = (filterSchema(vehicleDefinition) as z.AnyZodObject).extend({
  lang: z.enum(['zh-CN', 'en-US']).default('zh-CN'),
});

/** Vehicle routes beyond the grid; registered before the grid's controller so `export` is no `:id`. */
@ApiTags('basic: vehicle')
@ApiBearerAuth()
@Controller('api/vehicle')
export class VehiclesController {
  constructor(
    @Inject(VehiclesService) private readonly vehicles: VehiclesService,
    @Inject(AssetRepository) private readonly repository: AssetRepository,
  ) {}

  @Get('export')
  @RequirePermissions('basic:vehicle:export')
  async export(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodQuery(exportQuerySchema) query: Record<string, unknown> & { lang: 'zh-CN' | 'en-US' },
    @Res() res: HttpResponse,
  ): Promise<void> {
    const { lang, ...filter } = query;
    const scope = await this.vehicles.crud.scopeOf(me);
    res.setHeader('content-type', XLSX_CONTENT_TYPE);
    res.setHeader(
      'content-disposition',
      attachmentDisposition(lang === 'zh-CN' ? '车辆.xlsx' : 'vehicles.xlsx'),
    );
    await writeXlsx(
      res,
      'vehicles',
      VEHICLE_COLUMNS,
      this.repository.batches(vehicleDefinition, scope, filter),
      lang,
    );
  }

  /** multipart/form-data with one `file` (.xlsx, at most 2 MB); all rows or none. */
  @Post('import')
  @RequirePermissions('basic:vehicle:import')
  @ApiConsumes('multipart/form-data')
  @UseInterceptors(FileInterceptor('file', { limits: { fileSize: IMPORT_MAX_BYTES, files: 1 } }))
  import(
    @CurrentPrincipal() me: AuthPrincipal,
    @UploadedFile() file: UploadedSpreadsheet | undefined,
  ): Promise<{ imported: number }> {
    return this.vehicles.import(me, file);
  }
}
