import { Controller, Get, Inject, Post, Res, UploadedFile, UseInterceptors, type Type } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  ApiDoc,
  AuthPrincipal,
  CONTENT_TYPES,
  CurrentPrincipal,
  type HttpResponse,
  RequirePermissions,
  ZodQuery,
} from '@voltdepot/server-core';
import {
  IMPORT_MODES,
  type ImportMode,
  type ImportReport,
  importReportSchema,
  SPREADSHEET_LANGUAGES,
  SpreadsheetFileInterceptor,
  type SpreadsheetLanguage,
  type UploadedSpreadsheet,
  type XlsxHttpResponse,
} from '@voltdepot/server-spreadsheet';
import { z } from 'zod';
import type { AssetDefinition } from '../shared/asset-definition';
import { filterSchema } from '../shared/asset-crud.controller';
import type { AssetSheetService } from './asset-sheet.service';

export function sheetServiceToken(kind: string): string {
  return `ASSET_SHEET_SERVICE:${kind}`;
}

const lang = z.enum(SPREADSHEET_LANGUAGES).default('zh-CN');
const importQuerySchema = z.object({ lang, mode: z.enum(IMPORT_MODES).default('all') }).strict();
const templateQuerySchema = z.object({ lang }).strict();

function pascal(kind: string): string {
  return kind.charAt(0).toUpperCase() + kind.slice(1);
}

/**
 * `GET /api/<kind>/export` (grid filters, `lang`) and, for importable grids, `GET /api/<kind>/import/template`
 * and `POST /api/<kind>/import` (multipart `file`, xlsx or xls of at most 2 MB; `mode=all` rejects the whole
 * file on any row error, `mode=report` imports the good rows). Registered before the grid's routes, so
 * `export` is not taken for an `:id`.
 */
export function assetSheetControllers(def: AssetDefinition, importable: boolean): Type[] {
  const exportQuerySchema = (filterSchema(def) as z.AnyZodObject).extend({ lang });

  @ApiTags(`basic: ${def.kind}`)
  @ApiBearerAuth()
  @Controller(`api/${def.kind}`)
  class AssetExportController {
    constructor(@Inject(sheetServiceToken(def.kind)) private readonly sheets: AssetSheetService) {}

    @ApiDoc({ produces: [CONTENT_TYPES.xlsx] })
    @Get('export')
    @RequirePermissions(`${def.permission}:export`)
    async export(
      @CurrentPrincipal() me: AuthPrincipal,
      @ZodQuery(exportQuerySchema) query: Record<string, unknown> & { lang: SpreadsheetLanguage },
      @Res() res: HttpResponse,
    ): Promise<void> {
      const { lang: language, ...filter } = query;
      await this.sheets.export(me, filter, language, res as unknown as XlsxHttpResponse);
    }
  }
  Object.defineProperty(AssetExportController, 'name', { value: `${pascal(def.kind)}ExportController` });

  @ApiTags(`basic: ${def.kind}`)
  @ApiBearerAuth()
  @Controller(`api/${def.kind}`)
  class AssetImportController {
    constructor(@Inject(sheetServiceToken(def.kind)) private readonly sheets: AssetSheetService) {}

    @ApiDoc({ produces: [CONTENT_TYPES.xlsx] })
    @Get('import/template')
    @RequirePermissions(`${def.permission}:import`)
    async template(
      @ZodQuery(templateQuerySchema) query: { lang: SpreadsheetLanguage },
      @Res() res: HttpResponse,
    ): Promise<void> {
      await this.sheets.template(query.lang, res as unknown as XlsxHttpResponse);
    }

    @ApiDoc({
      summary: 'Import rows from .xlsx or .xls (mode=all: 422 with the report on any bad row)',
      body: 'file',
      response: importReportSchema,
      errors: [413, 422],
    })
    @Post('import')
    @RequirePermissions(`${def.permission}:import`)
    @UseInterceptors(SpreadsheetFileInterceptor())
    import(
      @CurrentPrincipal() me: AuthPrincipal,
      @ZodQuery(importQuerySchema) query: { lang: SpreadsheetLanguage; mode: ImportMode },
      @UploadedFile() file: UploadedSpreadsheet | undefined,
    ): Promise<ImportReport> {
      return this.sheets.import(me, file, query.lang, query.mode);
    }
  }
  Object.defineProperty(AssetImportController, 'name', { value: `${pascal(def.kind)}ImportController` });

  return importable ? [AssetExportController, AssetImportController] : [AssetExportController];
}
