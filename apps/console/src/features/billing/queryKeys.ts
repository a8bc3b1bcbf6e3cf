import type { QueryParams } from '../../request';

export const billingQueryKeys = {
  all: ['billing'] as const,
  pricePlans: (page: number, size: number) =>
    [...billingQueryKeys.all, 'pricePlans', { page, size }] as const,
  pricePlansAll: () => [...billingQueryKeys.all, 'pricePlans'] as const,
  discountPlans: (page: number, size: number) =>
    [...billingQueryKeys.all, 'discountPlans', { page, size }] as const,
  discountPlansAll: () => [...billingQueryKeys.all, 'discountPlans'] as const,
  orders: (page: number, size: number, filters: QueryParams) =>
    [...billingQueryKeys.all, 'orders', { page, size, ...filters }] as const,
  ordersAll: () => [...billingQueryKeys.all, 'orders'] as const,
  occupationOrders: (page: number, size: number, filters: QueryParams) =>
    [...billingQueryKeys.all, 'occupationOrders', { page, size, ...filters }] as const,
  orderOperations: (page: number, size: number, filters: QueryParams) =>
    [...billingQueryKeys.all, 'orderOperations', { page, size, ...filters }] as const,
  reservations: (page: number, size: number, filters: QueryParams) =>
    [...billingQueryKeys.all, 'reservations', { page, size, ...filters }] as const,
  order: (id: number) => [...billingQueryKeys.all, 'order', id] as const,
  orderOptions: () => [...billingQueryKeys.all, 'orderOptions'] as const,
  dictionary: (code: string) => [...billingQueryKeys.all, 'dict', code] as const,
};
