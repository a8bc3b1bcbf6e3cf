import { assetsRoutes } from '../../features/assets';
import { homeRoutes } from '../../features/home';
import { loginRoutes } from '../../features/login';
import { logsRoutes } from '../../features/logs';
import { messagesRoutes } from '../../features/messages';
import { welcomeRoutes } from '../../features/welcome';
import { monitoringRoutes } from '../../features/monitoring';
import { adminRoutes } from '../../features/admin';
import { billingRoutes } from '../../features/billing';
import { iccardRoutes } from '../../features/iccard';
import type { FeatureRoutes } from './knownRoutes';

/** Every feature's routes; add a feature here and its known paths start rendering. */
export const featureRoutes: FeatureRoutes = {
  ...loginRoutes,
  ...homeRoutes,
  ...welcomeRoutes,
  ...logsRoutes,
  ...assetsRoutes,
  ...adminRoutes,
  ...messagesRoutes,
  ...monitoringRoutes,
  ...billingRoutes,
  ...iccardRoutes,
};
