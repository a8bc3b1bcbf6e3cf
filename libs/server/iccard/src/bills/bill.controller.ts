import { Controller, Get, Inject, Res } from '@nestjs/common';
import {
  ApiDoc,
  type AuthPrincipal,
  CONTENT_TYPES,
  CurrentPrincipal,
  type HttpResponse,
  RequirePermissions,
  ZodParams,
  ZodQuery,
  gridPageParamsSchema,
  type GridPageParams,
} from '@voltdepot/server-core';
import { attachmentDisposition, sendXlsx } from '@voltdepot/server-spreadsheet';
import { BILL_LIST_COLUMNS } from './bill-document';
import { IcBillService } from './bill.service';
import {
  type BillDocumentQuery,
  billDocumentQuerySchema,
  type BillExportQuery,
  billExportQuerySchema,
  type BillParams,
  billParamsSchema,
  type BillQuery,
  billQuerySchema,
  icBillPageSchema,
  icBillStatementSchema,
} from './dto/bill.dto';

/** The button that opens the bills (seeded by the IC-card bills migration). */
export const ICCARD_BILL_PERMISSION = 'iccard:bill:query';

/**
 * Monthly bills of the IC-card customers' accounts (docs/ic-cards.md, Bills): the month's grid and its
 * xlsx, one account's statement and its xlsx and PDF. `month` is `YYYY-MM` in the business time zone.
 */
@Controller('api/iccard/bill')
export class IcCardBillController {
  constructor(@Inject(IcBillService) private readonly bills: IcBillService) {}

  @ApiDoc({ summary: "A month's bills of the customers' accounts", response: icBillPageSchema })
  @Get('page/:page/size/:size')
  @RequirePermissions(ICCARD_BILL_PERMISSION)
  page(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(gridPageParamsSchema) p: GridPageParams,
    @ZodQuery(billQuerySchema) q: BillQuery,
  ) {
    return this.bills.page(me.userId, q, p.page, p.size);
  }

  /** Declared before `:accountId/:month`, which would take `export/xlsx` otherwise. */
  @ApiDoc({ summary: "A month's bills as .xlsx", produces: [CONTENT_TYPES.xlsx], errors: [422] })
  @Get('export/xlsx')
  @RequirePermissions(ICCARD_BILL_PERMISSION)
  async exportList(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodQuery(billExportQuerySchema) q: BillExportQuery,
    @Res() res: HttpResponse,
  ): Promise<void> {
    const { lang, ...filter } = q;
    const rows = await this.bills.exportBatches(me.userId, filter);
    const name = this.bills.listFileName(filter.month, lang);
    await sendXlsx(res, name, 'bills', BILL_LIST_COLUMNS, rows, lang);
  }

  @ApiDoc({ summary: "An account's statement of a month", response: icBillStatementSchema, errors: [404] })
  @Get(':accountId/:month')
  @RequirePermissions(ICCARD_BILL_PERMISSION)
  statement(@CurrentPrincipal() me: AuthPrincipal, @ZodParams(billParamsSchema) p: BillParams) {
    return this.bills.statement(me.userId, p.accountId, p.month);
  }

  @ApiDoc({ summary: "An account's statement as .xlsx", produces: [CONTENT_TYPES.xlsx], errors: [404] })
  @Get(':accountId/:month/xlsx')
  @RequirePermissions(ICCARD_BILL_PERMISSION)
  async xlsx(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(billParamsSchema) p: BillParams,
    @ZodQuery(billDocumentQuerySchema) q: BillDocumentQuery,
    @Res() res: HttpResponse,
  ): Promise<void> {
    const file = await this.bills.document(me.userId, p.accountId, p.month, q.lang, 'xlsx');
    send(res, CONTENT_TYPES.xlsx, file);
  }

  @ApiDoc({ summary: "An account's statement as PDF", produces: [CONTENT_TYPES.pdf], errors: [404] })
  @Get(':accountId/:month/pdf')
  @RequirePermissions(ICCARD_BILL_PERMISSION)
  async pdf(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(billParamsSchema) p: BillParams,
    @ZodQuery(billDocumentQuerySchema) q: BillDocumentQuery,
    @Res() res: HttpResponse,
  ): Promise<void> {
    const file = await this.bills.document(me.userId, p.accountId, p.month, q.lang, 'pdf');
    send(res, CONTENT_TYPES.pdf, file);
  }
}

function send(res: HttpResponse, contentType: string, file: { fileName: string; body: Buffer }) {
  res.setHeader('content-type', contentType);
  res.setHeader('content-disposition', attachmentDisposition(file.fileName));
  res.setHeader('cache-control', 'no-store');
  res.setHeader('content-length', String(file.body.length));
  res.end(file.body);
}
