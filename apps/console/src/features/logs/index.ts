import type { FeatureRoutes } from '../../app/router/knownRoutes';
import { lazyPage } from '../../app/router/loadChunk';

export const logsRoutes = {
  '/sys/log': lazyPage('logs', () => import('./pages/LogsPage'), 'LogsPage'),
} satisfies FeatureRoutes;
