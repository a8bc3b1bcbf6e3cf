import type { FeatureRoutes } from '../../app/router/knownRoutes';
import { lazyPage } from '../../app/router/loadChunk';

/** The message-centre screens of the seeded msg menus; the send log is a tab of /msg/event. */
export const messagesRoutes = {
  '/msg/config': lazyPage('messages-config', () => import('./pages/ConfigPage'), 'ConfigPage'),
  '/msg/template': lazyPage('messages-template', () => import('./pages/TemplatePage'), 'TemplatePage'),
  '/msg/group': lazyPage('messages-group', () => import('./pages/GroupPage'), 'GroupPage'),
  '/msg/event': lazyPage('messages-event', () => import('./pages/EventPage'), 'EventPage'),
  '/msg/alerts': lazyPage('messages-alerts', () => import('./pages/AlertsPage'), 'AlertsPage'),
} satisfies FeatureRoutes;
