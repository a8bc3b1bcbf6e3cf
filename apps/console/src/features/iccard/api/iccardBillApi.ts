import { apiPath, type ApiResponse } from '@voltdepot/console-api-client';
import { request, type QueryParams } from '../../../request';
import { saveBlobInBrowser } from '../../../request/download';

const emptyPage = { list: [], total: 0 };

/** The IC-card bills' calls, through the one request layer. */
export const iccardBillApi = {
  async page(page: number, size: number, filters: QueryParams, signal?: AbortSignal) {
    return (
      (await request.get<ApiResponse<'IcCardBillController_page'>>(
        apiPath('IcCardBillController_page', { page, size }),
        { params: filters, signal },
      )) ?? emptyPage
    );
  },
  statement(accountId: number, month: string, signal?: AbortSignal) {
    return request.get<ApiResponse<'IcCardBillController_statement'>>(
      apiPath('IcCardBillController_statement', { accountId, month }),
      { signal },
    );
  },
  exportList(filters: QueryParams, lang: string) {
    return request.exportExcel(apiPath('IcCardBillController_exportList'), { params: { ...filters, lang } });
  },
  downloadXlsx(accountId: number, month: string, lang: string) {
    return request.exportExcel(apiPath('IcCardBillController_xlsx', { accountId, month }), {
      params: { lang },
    });
  },
  /** Saves the statement's PDF under the name the server gives (in the language); resolves with it. */
  async downloadPdf(accountId: number, month: string, lang: string): Promise<string | undefined> {
    const file = await request.download(apiPath('IcCardBillController_pdf', { accountId, month }), {
      params: { lang },
    });
    if (!file) return undefined;
    const name = file.fileName ?? `bill-${accountId}-${month}.pdf`;
    saveBlobInBrowser(file.data, name);
    return name;
  },
};
