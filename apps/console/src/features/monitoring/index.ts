import type { FeatureRoutes } from '../../app/router/knownRoutes';
import { lazyPage } from '../../app/router/loadChunk';

/** Live monitoring: station monitoring with its map, pile monitoring and the bus list (operation menu). */
export const monitoringRoutes = {
  '/operation/stationMonitor': lazyPage(
    'monitoring-station',
    () => import('./pages/StationMonitorPage'),
    'StationMonitorPage',
  ),
  '/operation/pileMonitor': lazyPage(
    'monitoring-pile',
    () => import('./pages/PileMonitorPage'),
    'PileMonitorPage',
  ),
  '/operation/busList': lazyPage('monitoring-bus', () => import('./pages/BusListPage'), 'BusListPage'),
} satisfies FeatureRoutes;
