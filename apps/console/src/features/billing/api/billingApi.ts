import { apiPath } from '@voltdepot/console-api-client';
import type {
  ChargingOrderDetail,
  ChargingOrderPage,
  DictNode,
  DiscountPlanView,
  GridPage,
  OccupationOrderPage,
  OrderFilterOptions,
  OrderOperationRow,
  PricePlanView,
  ReservationRow,
  ReviewOrderBody,
  SaveDiscountPlanBody,
  SavePricePlanBody,
} from '@voltdepot/shared-contracts';
import { request, type QueryParams } from '../../../request';

const emptyPage = <T>(): GridPage<T> => ({ list: [], total: 0 });

/** Every call of the billing screens, through the one request layer. */
export const billingApi = {
  async pricePlans(page: number, size: number, signal?: AbortSignal): Promise<GridPage<PricePlanView>> {
    return (
      (await request.get<GridPage<PricePlanView>>(apiPath('PricePlansController_page', { page, size }), {
        signal,
      })) ?? emptyPage()
    );
  },
  savePricePlan(id: number | undefined, body: SavePricePlanBody) {
    return id === undefined
      ? request.post<{ id: number }>(apiPath('PricePlansController_create'), body)
      : request.put<{ id: number }>(apiPath('PricePlansController_update', { id }), body);
  },
  deletePricePlan(id: number) {
    return request.delete<void>(apiPath('PricePlansController_remove', { id }));
  },

  async discountPlans(page: number, size: number, signal?: AbortSignal): Promise<GridPage<DiscountPlanView>> {
    return (
      (await request.get<GridPage<DiscountPlanView>>(
        apiPath('DiscountPlansController_page', { page, size }),
        {
          signal,
        },
      )) ?? emptyPage()
    );
  },
  saveDiscountPlan(id: number | undefined, body: SaveDiscountPlanBody) {
    return id === undefined
      ? request.post<{ id: number }>(apiPath('DiscountPlansController_create'), body)
      : request.put<{ id: number }>(apiPath('DiscountPlansController_update', { id }), body);
  },
  deleteDiscountPlan(id: number) {
    return request.delete<void>(apiPath('DiscountPlansController_remove', { id }));
  },

  async orders(
    page: number,
    size: number,
    filters: QueryParams,
    signal?: AbortSignal,
  ): Promise<ChargingOrderPage> {
    return (
      (await request.get<ChargingOrderPage>(apiPath('OrdersQueryController_page', { page, size }), {
        params: filters,
        signal,
      })) ?? {
        list: [],
        total: 0,
        totals: { count: 0, energyWh: 0, electricityFen: 0, serviceFen: 0, totalFen: 0, discountFen: 0 },
      }
    );
  },
  order(id: number, signal?: AbortSignal) {
    return request.get<ChargingOrderDetail>(apiPath('OrdersQueryController_detail', { id }), { signal });
  },
  orderOptions(signal?: AbortSignal) {
    return request.get<OrderFilterOptions>(apiPath('OrdersQueryController_options'), { signal });
  },
  reviewOrder(id: number, body: ReviewOrderBody) {
    return request.post<ChargingOrderDetail>(apiPath('OrdersQueryController_review', { id }), body);
  },

  async occupationOrders(
    page: number,
    size: number,
    filters: QueryParams,
    signal?: AbortSignal,
  ): Promise<OccupationOrderPage> {
    return (
      (await request.get<OccupationOrderPage>(apiPath('OccupationOrdersController_page', { page, size }), {
        params: filters,
        signal,
      })) ?? { list: [], total: 0, totalAmountFen: 0 }
    );
  },
  async orderOperations(
    page: number,
    size: number,
    filters: QueryParams,
    signal?: AbortSignal,
  ): Promise<GridPage<OrderOperationRow>> {
    return (
      (await request.get<GridPage<OrderOperationRow>>(
        apiPath('OrderOperationsController_page', { page, size }),
        { params: filters, signal },
      )) ?? emptyPage()
    );
  },
  async reservations(
    page: number,
    size: number,
    filters: QueryParams,
    signal?: AbortSignal,
  ): Promise<GridPage<ReservationRow>> {
    return (
      (await request.get<GridPage<ReservationRow>>(apiPath('ReservationsController_page', { page, size }), {
        params: filters,
        signal,
      })) ?? emptyPage()
    );
  },

  async dictionary(code: string, signal?: AbortSignal): Promise<DictNode[]> {
    return (
      (await request.get<DictNode[]>(apiPath('DictionariesController_items', { code }), { signal })) ?? []
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
