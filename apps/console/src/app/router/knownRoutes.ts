import type { ComponentType } from 'react';

export type RouteLayout = 'main' | 'blank';
export type MenuLabelKey = 'menu.home' | 'menu.welcome';

export type KnownRoute = {
  path: string;
  layout: RouteLayout;
  /** Shown in the side menu when set (and the feature exists). */
  menu?: MenuLabelKey;
};

/**
 * The route table: every route the spec names (§2 "Known routes") plus the welcome page, reserved
 * here so paths stay exactly as written. A route is rendered only once a feature provides it
 * (featureRoutes.ts); until then it is a 404.
 */
export const knownRoutes = [
  { path: '/login', layout: 'blank' }, // target after session expiry
  { path: '/home', layout: 'main', menu: 'menu.home' },
  { path: '/welcome', layout: 'main', menu: 'menu.welcome' },
  { path: '/screen/index.html', layout: 'blank' }, // big-screen page, opened in a new tab
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
] as const satisfies readonly KnownRoute[];

export type KnownPath = (typeof knownRoutes)[number]['path'];

/** A react-router `lazy` loader for one page (see lazyPage in loadChunk.ts). */
export type LazyPageRoute = () => Promise<{ Component: ComponentType }>;

/** What a feature exports: pages for some of the known paths. */
export type FeatureRoutes = Partial<Record<KnownPath, LazyPageRoute>>;
