import { apiPath, type ApiBody, type ApiResponse } from '@voltdepot/console-api-client';
import { request, type QueryParams } from '../../../request';

const emptyPage = { list: [], total: 0 };

/** Every call of the billing screens, through the one request layer. */
export const billingApi = {
  async pricePlans(page: number, size: number, signal?: AbortSignal) {
    return (
      (await request.get<ApiResponse<'PricePlansController_page'>>(
        apiPath('PricePlansController_page', { page, size }),
        {
          signal,
        },
      )) ?? emptyPage
    );
  },
  savePricePlan(id: number | undefined, body: ApiBody<'PricePlansController_create'>) {
    return id === undefined
      ? request.post<ApiResponse<'PricePlansController_create'>>(apiPath('PricePlansController_create'), body)
      : request.put<ApiResponse<'PricePlansController_update'>>(
          apiPath('PricePlansController_update', { id }),
          body,
        );
  },
  deletePricePlan(id: number) {
    return request.delete<ApiResponse<'PricePlansController_remove'>>(
      apiPath('PricePlansController_remove', { id }),
    );
  },

  async discountPlans(page: number, size: number, signal?: AbortSignal) {
    return (
      (await request.get<ApiResponse<'DiscountPlansController_page'>>(
        apiPath('DiscountPlansController_page', { page, size }),
        {
          signal,
        },
      )) ?? emptyPage
    );
  },
  saveDiscountPlan(id: number | undefined, body: ApiBody<'DiscountPlansController_create'>) {
    return id === undefined
      ? request.post<ApiResponse<'DiscountPlansController_create'>>(
          apiPath('DiscountPlansController_create'),
          body,
        )
      : request.put<ApiResponse<'DiscountPlansController_update'>>(
          apiPath('DiscountPlansController_update', { id }),
          body,
        );
  },
  deleteDiscountPlan(id: number) {
    return request.delete<ApiResponse<'DiscountPlansController_remove'>>(
      apiPath('DiscountPlansController_remove', { id }),
    );
  },

  async orders(
    page: number,
    size: number,
    filters: QueryParams,
    signal?: AbortSignal,
  ): Promise<ApiResponse<'OrdersQueryController_page'>> {
    return (
      (await request.get<ApiResponse<'OrdersQueryController_page'>>(
        apiPath('OrdersQueryController_page', { page, size }),
        {
          params: filters,
          signal,
        },
      )) ?? {
        list: [],
        total: 0,
        totals: { count: 0, energyWh: 0, electricityFen: 0, serviceFen: 0, totalFen: 0, discountFen: 0 },
      }
    );
  },
  order(id: number, signal?: AbortSignal) {
    return request.get<ApiResponse<'OrdersQueryController_detail'>>(
      apiPath('OrdersQueryController_detail', { id }),
      {
        signal,
      },
    );
  },
  orderOptions(signal?: AbortSignal) {
    return request.get<ApiResponse<'OrdersQueryController_options'>>(
      apiPath('OrdersQueryController_options'),
      {
        signal,
      },
    );
  },
  reviewOrder(id: number, body: ApiBody<'OrderReviewController_review'>) {
    return request.post<ApiResponse<'OrderReviewController_review'>>(
      apiPath('OrderReviewController_review', { id }),
      body,
    );
  },
  /** A new version of the order; `requestId` makes a retry find the version it made. */
  amendOrder(id: number, body: ApiBody<'OrderReviewController_amend'>) {
    return request.post<ApiResponse<'OrderReviewController_amend'>>(
      apiPath('OrderReviewController_amend', { id }),
      body,
    );
  },
  /** What an amendment would make of the order (nothing is saved). */
  previewAmendment(
    id: number,
    correction: { meterStopWh?: number; energyWh?: number },
    signal?: AbortSignal,
  ) {
    return request.get<ApiResponse<'OrderReviewController_preview'>>(
      apiPath('OrderReviewController_preview', { id }),
      { params: correction, signal },
    );
  },

  async occupationOrders(
    page: number,
    size: number,
    filters: QueryParams,
    signal?: AbortSignal,
  ): Promise<ApiResponse<'OccupationOrdersController_page'>> {
    return (
      (await request.get<ApiResponse<'OccupationOrdersController_page'>>(
        apiPath('OccupationOrdersController_page', { page, size }),
        {
          params: filters,
          signal,
        },
      )) ?? { list: [], total: 0, totalAmountFen: 0 }
    );
  },
  async orderOperations(page: number, size: number, filters: QueryParams, signal?: AbortSignal) {
    return (
      (await request.get<ApiResponse<'OrderOperationsController_page'>>(
        apiPath('OrderOperationsController_page', { page, size }),
        { params: filters, signal },
      )) ?? emptyPage
    );
  },
  async reservations(page: number, size: number, filters: QueryParams, signal?: AbortSignal) {
    return (
      (await request.get<ApiResponse<'ReservationsController_page'>>(
        apiPath('ReservationsController_page', { page, size }),
        {
          params: filters,
          signal,
        },
      )) ?? emptyPage
    );
  },

  async dictionary(code: string, signal?: AbortSignal): Promise<ApiResponse<'DictionariesController_items'>> {
    return (
      (await request.get<ApiResponse<'DictionariesController_items'>>(
        apiPath('DictionariesController_items', { code }),
        {
          signal,
        },
      )) ?? []
    );
  },

  /** The xlsx exports; resolve with the saved file name (undefined when nothing came back). */
  exportOrders(filters: QueryParams, lang: string) {
    return request.exportExcel(apiPath('OrdersQueryController_export'), { params: { ...filters, lang } });
  },
  exportOccupationOrders(filters: QueryParams, lang: string) {
    return request.exportExcel(apiPath('ListExportsController_exportOccupationOrders'), {
      params: { ...filters, lang },
    });
  },
  exportOrderOperations(filters: QueryParams, lang: string) {
    return request.exportExcel(apiPath('OrderOperationsController_export'), {
      params: { ...filters, lang },
    });
  },
  exportReservations(filters: QueryParams, lang: string) {
    return request.exportExcel(apiPath('ListExportsController_exportReservations'), {
      params: { ...filters, lang },
    });
  },
  exportPricePlans(lang: string) {
    return request.exportExcel(apiPath('PlanExportsController_exportPricePlans'), { params: { lang } });
  },
  exportDiscountPlans(lang: string) {
    return request.exportExcel(apiPath('PlanExportsController_exportDiscountPlans'), { params: { lang } });
  },
};
