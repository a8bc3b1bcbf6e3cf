import type { FeatureRoutes } from '../../app/router/knownRoutes';
import { lazyPage } from '../../app/router/loadChunk';

export const homeRoutes = {
  '/home': lazyPage('home', () => import('./pages/HomePage'), 'HomePage'),
} satisfies FeatureRoutes;
