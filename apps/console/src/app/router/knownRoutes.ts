import type { ComponentType } from 'react';

export type RouteLayout = 'main' | 'blank';

export type KnownRoute = {
  path: string;
  layout: RouteLayout;
  /** Reachable without signing in (only the login page). */
  public?: true;
  /**
   * Resource code the user must hold to open the page (route guard). Without it any signed-in user may.
   * The side menu comes from the user's menu resources; a resource appears there only when its path is
   * a route some feature provides.
   */
  permission?: string;
};

/**
 * The route table: every route the spec names (§2 "Known routes"), the welcome page, and the pages of
 * the seeded menu resources the console implements, reserved here so paths stay exactly as written.
 * A route is rendered only once a feature provides it (featureRoutes.ts); until then it is a 404.
 */
export const knownRoutes = [
  { path: '/login', layout: 'blank', public: true }, // target after session expiry
  { path: '/home', layout: 'main' }, // every signed-in user lands here
  { path: '/welcome', layout: 'main', permission: 'welcome' },
  // Big-screen page: its own Vite entry (screen/index.html), opened in a new tab by the desktop icon;
  // reserved so no route takes the path.
  { path: '/screen/index.html', layout: 'blank' },
  { path: '/station/ChargEquipManage/index', layout: 'main' }, // charger management
  { path: '/station/stationInfoManage/components/addForm', layout: 'main' }, // station information maintenance
  { path: '/opemanage/stationMonitor/testReportDesc', layout: 'main' }, // vehicle inspection detail report
  // Mobile-style pages for the mobile office platform.
  { path: '/dingding/index', layout: 'blank' },
  { path: '/dingding/stationList', layout: 'blank' },
  { path: '/dingding/simulationList', layout: 'blank' },
  { path: '/dingding/whiteList', layout: 'blank' },
  { path: '/iccard/group_basic_info', layout: 'main' }, // group and sub-user information
  // Detail pages for session (order), bus (vehicle), station, charger, branch (gun), appUser and
  // icCard; the spec gives only the /report/components/ prefix.
  { path: '/report/components/:detail', layout: 'main' },
  { path: '/appManage/user_list_changes', layout: 'main' }, // account record
  { path: '/appManage/userAccoutAmountRecordDetail', layout: 'main' }, // gift record detail (spelling as in the spec)
  { path: '/operation/orderManage/occupationOrder', layout: 'main' }, // occupation fee orders
  // Seeded menu resources (path = code with ':' as '/').
  { path: '/sys/log', layout: 'main', permission: 'sys:log' }, // operation and login logs
] as const satisfies readonly KnownRoute[];

export type KnownPath = (typeof knownRoutes)[number]['path'];

/** A react-router `lazy` loader for one page (see lazyPage in loadChunk.ts). */
export type LazyPageRoute = () => Promise<{ Component: ComponentType }>;

/** What a feature exports: pages for some of the known paths. */
export type FeatureRoutes = Partial<Record<KnownPath, LazyPageRoute>>;
