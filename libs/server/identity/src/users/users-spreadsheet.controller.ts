import { Controller, Get, HttpCode, Post, Res, UploadedFile, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  ApiDoc,
  AuthPrincipal,
  CommonException,
  CONTENT_TYPES,
  CurrentPrincipal,
  type HttpResponse,
  RequirePermissions,
  ZodParams,
  ZodQuery,
} from '@voltdepot/server-core';
import {
  IMPORT_PROGRESS_ID,
  type ImportProgress,
  importProgressSchema,
  type ImportReport,
  importReportSchema,
  sendTemplate,
  sendXlsx,
  SPREADSHEET_LANGUAGES,
  SpreadsheetFileInterceptor,
  type UploadedSpreadsheet,
} from '@voltdepot/server-spreadsheet';
import { CommonErrorCodes } from '@voltdepot/shared-contracts';
import { z } from 'zod';
import { userQuerySchema } from './user.dto';
import { USER_EXPORT_COLUMNS, USER_IMPORT_COLUMNS, USER_TEMPLATE_EXAMPLE } from './user-sheet';
import { USER_IMPORT_MAX_BYTES, UsersImportService } from './users-import.service';

const lang = z.enum(SPREADSHEET_LANGUAGES).default('zh-CN');
const exportQuerySchema = userQuerySchema.extend({ lang });
const templateQuerySchema = z.object({ lang });
// No `mode`: an import is all or nothing (a half-imported file is never left behind), so the former
// `mode=report` is refused (400) rather than silently read as something else.
const importQuerySchema = z
  .object({
    lang,
    progressId: z.string().regex(IMPORT_PROGRESS_ID, 'Expected a UUID').optional(),
  })
  .strict();
const progressParamsSchema = z.object({
  progressId: z.string().regex(IMPORT_PROGRESS_ID, 'Expected a UUID'),
});

/**
 * The user list as a spreadsheet: export, import template and import. Registered before
 * UsersController, so `export` is not taken for a user id.
 */
@ApiTags('sys: users')
@ApiBearerAuth()
@Controller('api/user')
export class UsersSpreadsheetController {
  constructor(private readonly imports: UsersImportService) {}

  /** The filtered user list (same filters as the grid) as .xlsx, headers in `lang`. */
  @ApiDoc({ summary: 'The filtered user list as .xlsx', produces: [CONTENT_TYPES.xlsx] })
  @Get('export')
  @RequirePermissions('sys:user:query')
  async export(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodQuery(exportQuerySchema) q: z.infer<typeof exportQuerySchema>,
    @Res() res: HttpResponse,
  ): Promise<void> {
    const { lang: language, ...filter } = q;
    const name = language === 'zh-CN' ? '用户列表.xlsx' : 'users.xlsx';
    const batches = await this.imports.exportBatches(me, filter);
    await sendXlsx(res, name, 'users', USER_EXPORT_COLUMNS, batches, language);
  }

  /** The import template: the columns the import reads, required ones marked, one example row. */
  @ApiDoc({ summary: 'The import template', produces: [CONTENT_TYPES.xlsx] })
  @Get('import/template')
  @RequirePermissions('sys:user:add')
  async template(
    @ZodQuery(templateQuerySchema) q: z.infer<typeof templateQuerySchema>,
    @Res() res: HttpResponse,
  ): Promise<void> {
    const name = q.lang === 'zh-CN' ? '用户导入模板.xlsx' : 'user-import-template.xlsx';
    await sendTemplate(res, name, 'users', USER_IMPORT_COLUMNS, q.lang, [USER_TEMPLATE_EXAMPLE]);
  }

  /**
   * multipart/form-data with one `file` (.xlsx or .xls, at most 2 MB, at most 1000 rows).
   * All or nothing: any row error rejects the file with 422 and the report in `details`, and nothing
   * is imported. With a `progressId` (a UUID the client makes up) the progress can be polled meanwhile.
   */
  @ApiDoc({
    summary: 'Import users from .xlsx or .xls (all or nothing: 422 with the report)',
    body: 'file',
    response: importReportSchema,
    errors: [413, 422],
  })
  @Post('import')
  @HttpCode(200)
  @RequirePermissions('sys:user:add')
  @UseInterceptors(SpreadsheetFileInterceptor(USER_IMPORT_MAX_BYTES))
  import(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodQuery(importQuerySchema) q: z.infer<typeof importQuerySchema>,
    @UploadedFile() file: UploadedSpreadsheet | undefined,
  ): Promise<ImportReport> {
    return this.imports.import(me, file, { language: q.lang, progressId: q.progressId });
  }

  /** Progress of the caller's own import started with this `progressId`. */
  @ApiDoc({ response: importProgressSchema, errors: [404] })
  @Get('import/progress/:progressId')
  @RequirePermissions('sys:user:add')
  async progress(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(progressParamsSchema) p: z.infer<typeof progressParamsSchema>,
  ): Promise<ImportProgress> {
    const progress = await this.imports.progressOf(me, p.progressId);
    if (progress === null) {
      throw new CommonException(CommonErrorCodes.NotFound, `No import with progress id ${p.progressId}`);
    }
    return progress;
  }
}
