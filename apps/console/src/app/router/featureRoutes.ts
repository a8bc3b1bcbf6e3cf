import { homeRoutes } from '../../features/home';
import { loginRoutes } from '../../features/login';
import { logsRoutes } from '../../features/logs';
import { welcomeRoutes } from '../../features/welcome';
import type { FeatureRoutes } from './knownRoutes';

/** Every feature's routes; add a feature here and its known paths start rendering. */
export const featureRoutes: FeatureRoutes = {
  ...loginRoutes,
  ...homeRoutes,
  ...welcomeRoutes,
  ...logsRoutes,
};
