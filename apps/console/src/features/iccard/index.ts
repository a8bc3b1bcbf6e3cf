import type { FeatureRoutes } from '../../app/router/knownRoutes';
import { lazyPage } from '../../app/router/loadChunk';

export const iccardRoutes = {
  '/iccard/customer': lazyPage('iccard', () => import('./pages/CustomersPage'), 'CustomersPage'),
  '/iccard/cardManage': lazyPage('iccard', () => import('./pages/CardsPage'), 'CardsPage'),
  '/iccard/driverCard': lazyPage('iccard', () => import('./pages/DriverCardsPage'), 'DriverCardsPage'),
} satisfies FeatureRoutes;
