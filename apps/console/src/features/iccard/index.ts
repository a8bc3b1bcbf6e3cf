import type { FeatureRoutes } from '../../app/router/knownRoutes';
import { lazyPage } from '../../app/router/loadChunk';

/** The IC-card screens (docs/ic-cards.md, "The console screens" and "Bills"). */
export const iccardRoutes = {
  '/iccard/customer': lazyPage('iccard', () => import('./pages/CustomersPage'), 'CustomersPage'),
  '/iccard/cardManage': lazyPage('iccard', () => import('./pages/CardsPage'), 'CardsPage'),
  '/iccard/driverCard': lazyPage('iccard', () => import('./pages/DriverCardsPage'), 'DriverCardsPage'),
  '/iccard/recharge': lazyPage('iccard', () => import('./pages/RechargeRecordsPage'), 'RechargeRecordsPage'),
  '/iccard/consumption': lazyPage('iccard', () => import('./pages/ConsumptionPage'), 'ConsumptionPage'),
  '/iccard/groupAccount': lazyPage('iccard', () => import('./pages/GroupAccountsPage'), 'GroupAccountsPage'),
  '/iccard/group_basic_info': lazyPage('iccard', () => import('./pages/GroupInfoPage'), 'GroupInfoPage'),
  '/iccard/bill': lazyPage('iccard', () => import('./pages/BillsPage'), 'BillsPage'),
  '/report/components/icCard': lazyPage('iccard', () => import('./pages/CardDetailPage'), 'CardDetailPage'),
} satisfies FeatureRoutes;
