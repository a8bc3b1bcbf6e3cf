import { Controller, Get, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  ApiDoc,
  AuthPrincipal,
  CONTENT_TYPES,
  CurrentPrincipal,
  type HttpResponse,
  RequirePermissions,
  ZodParams,
  ZodQuery,
} from '@voltdepot/server-core';
import { sendXlsx, type SpreadsheetColumn } from '@voltdepot/server-spreadsheet';
import type { GridPage } from '@voltdepot/shared-contracts';
import { z } from 'zod';
import { DataScopeService } from '../shared/data-scope';
import {
  optionalQueryBoolean,
  optionalQueryDate,
  optionalQueryText,
  PageParams,
  pageParamsSchema,
} from '../shared/schemas';
import { LogRepository } from './log.repository';
import {
  loginLogPageSchema,
  operationLogPageSchema,
  type LoginLogView,
  type OperationLogView,
} from './log.dto';

const logFilterSchema = z.object({
  username: optionalQueryText,
  success: optionalQueryBoolean,
  start: optionalQueryDate,
  end: optionalQueryDate,
  method: z
    .enum(['POST', 'PUT', 'PATCH', 'DELETE', 'post', 'put', 'patch', 'delete', ''])
    .optional()
    .transform((v) => (v === '' ? undefined : v)),
  path: optionalQueryText,
});

/** A period ending before it starts is a mistake in the filter, not an empty result. */
function periodInOrder(q: { start?: Date; end?: Date }, ctx: z.RefinementCtx): void {
  if (q.start !== undefined && q.end !== undefined && q.end < q.start) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['end'], message: 'Must not be before start' });
  }
}

const logQuerySchema = logFilterSchema.superRefine(periodInOrder);
type LogQuery = z.infer<typeof logQuerySchema>;

const exportQuerySchema = logFilterSchema
  .extend({ lang: z.enum(['zh-CN', 'en-US']).default('zh-CN') })
  .superRefine(periodInOrder);

/** The most rows one export writes (newest first). */
const EXPORT_LIMIT = 50_000;
const EXPORT_BATCH = 1_000;

const OPERATION_COLUMNS: SpreadsheetColumn<OperationLogView>[] = [
  { key: 'createdAt', header: { 'zh-CN': '时间', 'en-US': 'Time' }, value: (r) => r.createdAt },
  { key: 'username', header: { 'zh-CN': '用户', 'en-US': 'User' }, value: (r) => r.username },
  { key: 'method', header: { 'zh-CN': '方法', 'en-US': 'Method' }, value: (r) => r.method, width: 10 },
  { key: 'path', header: { 'zh-CN': '路径', 'en-US': 'Path' }, value: (r) => r.path, width: 40 },
  { key: 'status', header: { 'zh-CN': '状态码', 'en-US': 'Status' }, value: (r) => r.status, width: 10 },
  {
    key: 'success',
    header: { 'zh-CN': '结果', 'en-US': 'Result' },
    value: (r) => (r.success ? 'OK' : 'FAILED'),
    width: 10,
  },
  { key: 'ip', header: { 'zh-CN': '来源地址', 'en-US': 'Address' }, value: (r) => r.ip },
  {
    key: 'durationMs',
    header: { 'zh-CN': '耗时(毫秒)', 'en-US': 'Duration (ms)' },
    value: (r) => r.durationMs,
    width: 12,
  },
];

@ApiTags('sys: logs')
@ApiBearerAuth()
@Controller('api')
export class LogsController {
  constructor(
    private readonly logs: LogRepository,
    private readonly scopes: DataScopeService,
  ) {}

  @ApiDoc({ response: operationLogPageSchema })
  @Get('operationLog/page/:page/size/:size')
  @RequirePermissions('sys:log:operation')
  async operations(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(pageParamsSchema) p: PageParams,
    @ZodQuery(logQuerySchema) q: LogQuery,
  ): Promise<GridPage<OperationLogView>> {
    const scope = await this.scopes.scopeOf(me.userId);
    return this.logs.pageOperations(
      scope,
      { username: q.username, success: q.success, from: q.start, to: q.end, method: q.method, path: q.path },
      p.page,
      p.size,
    );
  }

  /** The filtered operation log as .xlsx (headers in Chinese or English, formula-like cells escaped). */
  @ApiDoc({ produces: [CONTENT_TYPES.xlsx] })
  @Get('operationLog/export')
  @RequirePermissions('sys:log:operation')
  async exportOperations(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodQuery(exportQuerySchema) q: z.infer<typeof exportQuerySchema>,
    @Res() res: HttpResponse,
  ): Promise<void> {
    const scope = await this.scopes.scopeOf(me.userId);
    const filter = {
      username: q.username,
      success: q.success,
      from: q.start,
      to: q.end,
      method: q.method,
      path: q.path,
    };
    const logs = this.logs;
    async function* batches() {
      for (let page = 1; page * EXPORT_BATCH <= EXPORT_LIMIT; page++) {
        const { list } = await logs.pageOperations(scope, filter, page, EXPORT_BATCH);
        if (list.length > 0) yield list;
        if (list.length < EXPORT_BATCH) return;
      }
    }
    const name = q.lang === 'zh-CN' ? '操作日志.xlsx' : 'operation-log.xlsx';
    await sendXlsx(res, name, 'operation-log', OPERATION_COLUMNS, batches(), q.lang);
  }

  @ApiDoc({ response: loginLogPageSchema })
  @Get('loginLog/page/:page/size/:size')
  @RequirePermissions('sys:log:login')
  async logins(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(pageParamsSchema) p: PageParams,
    @ZodQuery(logQuerySchema) q: LogQuery,
  ): Promise<GridPage<LoginLogView>> {
    const scope = await this.scopes.scopeOf(me.userId);
    return this.logs.pageLogins(
      scope,
      { username: q.username, success: q.success, from: q.start, to: q.end },
      p.page,
      p.size,
    );
  }
}
