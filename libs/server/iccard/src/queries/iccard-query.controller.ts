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
  serialIdParamsSchema,
  type SerialIdParams,
} from '@voltdepot/server-core';
import { sendXlsx } from '@voltdepot/server-spreadsheet';
import { ICCARD_PERMISSIONS } from '../iccard.controller';
import {
  type AccountExport,
  accountExportSchema,
  type AccountQuery,
  accountQuerySchema,
  type ActionExport,
  actionExportSchema,
  type CardDetailParams,
  cardDetailParamsSchema,
  type CardExport,
  cardExportSchema,
  type CompanyExport,
  companyExportSchema,
  type CustomerExport,
  customerExportSchema,
  icAccountPageSchema,
  icCardDetailSchema,
  icGroupInfoSchema,
  icLedgerRecordPageSchema,
  type RecordExport,
  recordExportSchema,
  type RecordQuery,
  recordQuerySchema,
} from './dto/iccard-query.dto';
import {
  ACCOUNT_COLUMNS,
  ACTION_COLUMNS,
  CARD_COLUMNS,
  COMPANY_COLUMNS,
  CUSTOMER_COLUMNS,
  RECORD_COLUMNS,
} from './iccard-exports';
import { IcCardQueryService } from './iccard-query.service';

/** The file name of an export in the sheet's language. */
const fileName = (lang: 'zh-CN' | 'en-US', zh: string, en: string) => (lang === 'zh-CN' ? zh : en);

/**
 * The IC-card screens' reads (docs/ic-cards.md, API): accounts, a group with its users, the ledger
 * records (recharge details, consumption details...), a card's detail page; and every IC-card list as
 * .xlsx with the list's own filters (`lang` zh-CN or en-US; at most ICCARD_EXPORT_LIMIT rows, else 422).
 * Amounts in fen; exports in yuan, times in the business time zone.
 */
@Controller('api/iccard')
export class IcCardQueryController {
  constructor(@Inject(IcCardQueryService) private readonly service: IcCardQueryService) {}

  @ApiDoc({
    summary: 'Customer accounts with balance, arrears, consumption and recharges',
    response: icAccountPageSchema,
  })
  @Get('account/page/:page/size/:size')
  @RequirePermissions(ICCARD_PERMISSIONS.customerQuery)
  accountPage(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(gridPageParamsSchema) p: GridPageParams,
    @ZodQuery(accountQuerySchema) q: AccountQuery,
  ) {
    return this.service.accountPage(me.userId, q, p.page, p.size);
  }

  @ApiDoc({ summary: 'A group with its account and its users', response: icGroupInfoSchema, errors: [404] })
  @Get('group/:id')
  @RequirePermissions(ICCARD_PERMISSIONS.customerQuery)
  groupInfo(@CurrentPrincipal() me: AuthPrincipal, @ZodParams(serialIdParamsSchema) p: SerialIdParams) {
    return this.service.groupInfo(me.userId, p.id);
  }

  @ApiDoc({
    summary:
      'Ledger records of the accounts (kind=recharge,refund; kind=consumption,consumption_amendment...)',
    response: icLedgerRecordPageSchema,
  })
  @Get('record/page/:page/size/:size')
  @RequirePermissions(ICCARD_PERMISSIONS.recordQuery)
  recordPage(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(gridPageParamsSchema) p: GridPageParams,
    @ZodQuery(recordQuerySchema) q: RecordQuery,
  ) {
    return this.service.recordPage(me.userId, q, p.page, p.size);
  }

  @ApiDoc({
    summary: "A card with its holder, account, last actions and the account's last records",
    response: icCardDetailSchema,
    errors: [404],
  })
  @Get('card/:cardNo/detail')
  @RequirePermissions(ICCARD_PERMISSIONS.cardQuery)
  cardDetail(@CurrentPrincipal() me: AuthPrincipal, @ZodParams(cardDetailParamsSchema) p: CardDetailParams) {
    return this.service.cardDetail(me.userId, p.cardNo);
  }

  @ApiDoc({ produces: [CONTENT_TYPES.xlsx], errors: [422] })
  @Get('company/export/xlsx')
  @RequirePermissions(ICCARD_PERMISSIONS.customerQuery)
  async exportCompanies(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodQuery(companyExportSchema) q: CompanyExport,
    @Res() res: HttpResponse,
  ): Promise<void> {
    const rows = await this.service.companyRows(me.userId, q);
    const name = fileName(q.lang, 'IC卡公司.xlsx', 'ic-card-companies.xlsx');
    await sendXlsx(res, name, 'companies', COMPANY_COLUMNS, rows, q.lang);
  }

  @ApiDoc({ produces: [CONTENT_TYPES.xlsx], errors: [422] })
  @Get('customer/export/xlsx')
  @RequirePermissions(ICCARD_PERMISSIONS.customerQuery)
  async exportCustomers(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodQuery(customerExportSchema) q: CustomerExport,
    @Res() res: HttpResponse,
  ): Promise<void> {
    const rows = await this.service.customerRows(me.userId, q);
    const name = fileName(q.lang, 'IC卡客户.xlsx', 'ic-card-customers.xlsx');
    await sendXlsx(res, name, 'customers', CUSTOMER_COLUMNS, rows, q.lang);
  }

  @ApiDoc({ produces: [CONTENT_TYPES.xlsx], errors: [422] })
  @Get('card/export/xlsx')
  @RequirePermissions(ICCARD_PERMISSIONS.cardQuery)
  async exportCards(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodQuery(cardExportSchema) q: CardExport,
    @Res() res: HttpResponse,
  ): Promise<void> {
    const rows = await this.service.cardRows(me.userId, q);
    const name =
      q.cardType === '0'
        ? fileName(q.lang, '司机卡.xlsx', 'driver-cards.xlsx')
        : fileName(q.lang, 'IC卡.xlsx', 'ic-cards.xlsx');
    await sendXlsx(res, name, 'cards', CARD_COLUMNS, rows, q.lang);
  }

  @ApiDoc({ produces: [CONTENT_TYPES.xlsx], errors: [422] })
  @Get('action/export/xlsx')
  @RequirePermissions(ICCARD_PERMISSIONS.recordQuery)
  async exportActions(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodQuery(actionExportSchema) q: ActionExport,
    @Res() res: HttpResponse,
  ): Promise<void> {
    const rows = await this.service.actionRows(me.userId, q);
    const name = fileName(q.lang, 'IC卡操作记录.xlsx', 'ic-card-actions.xlsx');
    await sendXlsx(res, name, 'actions', ACTION_COLUMNS, rows, q.lang);
  }

  @ApiDoc({ produces: [CONTENT_TYPES.xlsx], errors: [422] })
  @Get('account/export/xlsx')
  @RequirePermissions(ICCARD_PERMISSIONS.customerQuery)
  async exportAccounts(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodQuery(accountExportSchema) q: AccountExport,
    @Res() res: HttpResponse,
  ): Promise<void> {
    const rows = await this.service.accountRows(me.userId, q);
    const name = fileName(q.lang, 'IC卡账户.xlsx', 'ic-card-accounts.xlsx');
    await sendXlsx(res, name, 'accounts', ACCOUNT_COLUMNS, rows, q.lang);
  }

  @ApiDoc({ produces: [CONTENT_TYPES.xlsx], errors: [422] })
  @Get('record/export/xlsx')
  @RequirePermissions(ICCARD_PERMISSIONS.recordQuery)
  async exportRecords(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodQuery(recordExportSchema) q: RecordExport,
    @Res() res: HttpResponse,
  ): Promise<void> {
    const rows = await this.service.recordRows(me.userId, q);
    const name = fileName(q.lang, 'IC卡账户明细.xlsx', 'ic-card-records.xlsx');
    await sendXlsx(res, name, 'records', RECORD_COLUMNS, rows, q.lang);
  }
}
