import { apiPath, type ApiBody, type ApiResponse } from '@voltdepot/console-api-client';
import type { IcCardAction } from '@voltdepot/shared-contracts';
import { request, type QueryParams } from '../../../request';

const emptyPage = { list: [], total: 0 };

/** The lists the server exports as xlsx (GET /api/iccard/{list}/export/xlsx?lang=&<filters>). */
export type IcCardExport = 'company' | 'customer' | 'card' | 'action' | 'account' | 'record';

const EXPORTS = {
  company: 'IcCardQueryController_exportCompanies',
  customer: 'IcCardQueryController_exportCustomers',
  card: 'IcCardQueryController_exportCards',
  action: 'IcCardQueryController_exportActions',
  account: 'IcCardQueryController_exportAccounts',
  record: 'IcCardQueryController_exportRecords',
} as const;

/** Every call of the IC-card screens, through the one request layer. */
export const icCardApi = {
  async companies(page: number, size: number, filters: QueryParams, signal?: AbortSignal) {
    return (
      (await request.get<ApiResponse<'IcCardController_companyPage'>>(
        apiPath('IcCardController_companyPage', { page, size }),
        { params: filters, signal },
      )) ?? emptyPage
    );
  },
  saveCompany(id: number | undefined, body: ApiBody<'IcCardController_createCompany'>) {
    return id === undefined
      ? request.post<ApiResponse<'IcCardController_createCompany'>>(
          apiPath('IcCardController_createCompany'),
          body,
        )
      : request.put<ApiResponse<'IcCardController_updateCompany'>>(
          apiPath('IcCardController_updateCompany', { id }),
          body,
        );
  },
  async customers(page: number, size: number, filters: QueryParams, signal?: AbortSignal) {
    return (
      (await request.get<ApiResponse<'IcCardController_customerPage'>>(
        apiPath('IcCardController_customerPage', { page, size }),
        { params: filters, signal },
      )) ?? emptyPage
    );
  },
  saveCustomer(id: number | undefined, body: ApiBody<'IcCardController_createCustomer'>) {
    return id === undefined
      ? request.post<ApiResponse<'IcCardController_createCustomer'>>(
          apiPath('IcCardController_createCustomer'),
          body,
        )
      : request.put<ApiResponse<'IcCardController_updateCustomer'>>(
          apiPath('IcCardController_updateCustomer', { id }),
          body,
        );
  },
  async cards(page: number, size: number, filters: QueryParams, signal?: AbortSignal) {
    return (
      (await request.get<ApiResponse<'IcCardController_cardPage'>>(
        apiPath('IcCardController_cardPage', { page, size }),
        { params: filters, signal },
      )) ?? emptyPage
    );
  },
  createCard(body: ApiBody<'IcCardController_createCard'>) {
    return request.post<ApiResponse<'IcCardController_createCard'>>(
      apiPath('IcCardController_createCard'),
      body,
    );
  },
  /** One card action; a retry sends the same `requestId` and gets the first answer. */
  perform(cardNo: string, action: IcCardAction, body: ApiBody<'IcCardController_perform'>) {
    return request.post<ApiResponse<'IcCardController_perform'>>(
      apiPath('IcCardController_perform', { cardNo, action }),
      body,
    );
  },
  async actions(page: number, size: number, filters: QueryParams, signal?: AbortSignal) {
    return (
      (await request.get<ApiResponse<'IcCardController_actionPage'>>(
        apiPath('IcCardController_actionPage', { page, size }),
        { params: filters, signal },
      )) ?? emptyPage
    );
  },
  transfer(groupId: number, direction: 'allocate' | 'reclaim', body: ApiBody<'IcCardController_transfer'>) {
    return request.post<ApiResponse<'IcCardController_transfer'>>(
      apiPath('IcCardController_transfer', { id: groupId, direction }),
      body,
    );
  },

  async accounts(page: number, size: number, filters: QueryParams, signal?: AbortSignal) {
    return (
      (await request.get<ApiResponse<'IcCardQueryController_accountPage'>>(
        apiPath('IcCardQueryController_accountPage', { page, size }),
        { params: filters, signal },
      )) ?? emptyPage
    );
  },
  async records(page: number, size: number, filters: QueryParams, signal?: AbortSignal) {
    return (
      (await request.get<ApiResponse<'IcCardQueryController_recordPage'>>(
        apiPath('IcCardQueryController_recordPage', { page, size }),
        { params: filters, signal },
      )) ?? { ...emptyPage, sumFen: 0 }
    );
  },
  group(id: number, signal?: AbortSignal) {
    return request.get<ApiResponse<'IcCardQueryController_groupInfo'>>(
      apiPath('IcCardQueryController_groupInfo', { id }),
      { signal },
    );
  },
  cardDetail(cardNo: string, signal?: AbortSignal) {
    return request.get<ApiResponse<'IcCardQueryController_cardDetail'>>(
      apiPath('IcCardQueryController_cardDetail', { cardNo }),
      { signal },
    );
  },
  export(list: IcCardExport, filters: QueryParams, lang: string) {
    return request.exportExcel(apiPath(EXPORTS[list]), { params: { ...filters, lang } });
  },
};
