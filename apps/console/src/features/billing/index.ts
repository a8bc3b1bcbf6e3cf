import type { FeatureRoutes } from '../../app/router/knownRoutes';
import { lazyPage } from '../../app/router/loadChunk';

export const billingRoutes = {
  '/operation/pricePlan': lazyPage('billing', () => import('./pages/PricePlansPage'), 'PricePlansPage'),
  '/operation/discountPlan': lazyPage(
    'billing',
    () => import('./pages/DiscountPlansPage'),
    'DiscountPlansPage',
  ),
  '/operation/orderManage/orderQuery': lazyPage(
    'billing',
    () => import('./pages/OrderQueryPage'),
    'OrderQueryPage',
  ),
  '/operation/orderManage/abnormalOrder': lazyPage(
    'billing',
    () => import('./pages/AbnormalOrdersPage'),
    'AbnormalOrdersPage',
  ),
  '/operation/orderManage/occupationOrder': lazyPage(
    'billing',
    () => import('./pages/OccupationOrdersPage'),
    'OccupationOrdersPage',
  ),
  '/operation/orderManage/operationLog': lazyPage(
    'billing',
    () => import('./pages/OrderOperationsPage'),
    'OrderOperationsPage',
  ),
  '/operation/reservation': lazyPage('billing', () => import('./pages/ReservationsPage'), 'ReservationsPage'),
  '/report/components/session': lazyPage(
    'billing',
    () => import('./pages/OrderDetailPage'),
    'OrderDetailPage',
  ),
} satisfies FeatureRoutes;
