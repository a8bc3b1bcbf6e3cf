import type { FeatureRoutes } from '../../app/router/knownRoutes';
import { lazyNamed } from '../../app/lazy/lazyNamed';
import { lazyPage } from '../../app/router/loadChunk';

/** The administration screens of the seeded sys menus (logs are their own feature). */
export const adminRoutes = {
  '/sys/user': lazyPage('admin-users', () => import('./pages/UsersPage'), 'UsersPage'),
  '/sys/role': lazyPage('admin-roles', () => import('./pages/RolesPage'), 'RolesPage'),
  '/sys/org': lazyPage('admin-orgs', () => import('./pages/OrganizationsPage'), 'OrganizationsPage'),
  '/sys/resource': lazyPage('admin-resources', () => import('./pages/ResourcesPage'), 'ResourcesPage'),
  '/sys/dict': lazyPage('admin-dicts', () => import('./pages/DictionariesPage'), 'DictionariesPage'),
  '/sys/config': lazyPage(
    'admin-platform-settings',
    () => import('./pages/PlatformSettingsPage'),
    'PlatformSettingsPage',
  ),
  '/sys/parameter': lazyPage(
    'admin-parameters',
    () => import('./pages/SystemParametersPage'),
    'SystemParametersPage',
  ),
  '/sys/thirdParty': lazyPage(
    'admin-third-party',
    () => import('./pages/ThirdPartySettingsPage'),
    'ThirdPartySettingsPage',
  ),
} satisfies FeatureRoutes;

// For the shell (not routes): the user menu's two-factor dialog and the sign-in page's required enrolment,
// loaded when first shown (render them in Suspense, e.g. MountWhenOpened).
export const TwoFactorDialog = lazyNamed(
  'admin-two-factor',
  () => import('./components/TwoFactor'),
  'TwoFactorDialog',
);
export const RequiredTotpEnrolmentDialog = lazyNamed(
  'admin-two-factor',
  () => import('./components/TwoFactor'),
  'RequiredTotpEnrolmentDialog',
);
