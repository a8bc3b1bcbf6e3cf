import type { FeatureRoutes } from '../../app/router/knownRoutes';
import { lazyPage } from '../../app/router/loadChunk';

export const loginRoutes = {
  '/login': lazyPage('login', () => import('./pages/LoginPage'), 'LoginPage'),
} satisfies FeatureRoutes;
