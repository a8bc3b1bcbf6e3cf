import type { FeatureRoutes } from '../../app/router/knownRoutes';
import { lazyPage } from '../../app/router/loadChunk';

export const welcomeRoutes = {
  '/welcome': lazyPage('welcome', () => import('./pages/WelcomePage'), 'WelcomePage'),
} satisfies FeatureRoutes;
