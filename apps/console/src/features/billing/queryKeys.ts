/** The billing lists; each one's pages share its key (a mutation invalidates the list). */
export type BillingList =
  'pricePlans' | 'discountPlans' | 'orders' | 'occupationOrders' | 'orderOperations' | 'reservations';

export const billingQueryKeys = {
  all: ['billing'] as const,
  list: (name: BillingList) => [...billingQueryKeys.all, name] as const,
  order: (id: number) => [...billingQueryKeys.all, 'order', id] as const,
  amendmentPreview: (id: number, by: string, wh: number) =>
    [...billingQueryKeys.all, 'order', id, 'amend', by, wh] as const,
  orderOptions: () => [...billingQueryKeys.all, 'orderOptions'] as const,
  dictionary: (code: string) => [...billingQueryKeys.all, 'dict', code] as const,
};
