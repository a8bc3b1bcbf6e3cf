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
  { path: '/iccard/group_basic_info', layout: 'main', permission: 'iccard:group_basic_info' }, // group and sub-user information
  // Detail pages for session (order), bus (vehicle), station, charger, branch (gun), appUser and
  // icCard; the spec gives only the /report/components/ prefix.
  { path: '/report/components/:detail', layout: 'main' },
  { path: '/appManage/user_list_changes', layout: 'main' }, // account record
  { path: '/appManage/userAccoutAmountRecordDetail', layout: 'main' }, // gift record detail (spelling as in the spec)
  {
    path: '/operation/orderManage/occupationOrder',
    layout: 'main',
    permission: 'operation:occupationOrder',
  }, // occupation fee orders
  // Seeded menu resources (path = code with ':' as '/').
  { path: '/sys/log', layout: 'main', permission: 'sys:log' }, // operation and login logs
  // Billing (features/billing): price and discount plans, order query, abnormal orders, session detail.
  { path: '/operation/pricePlan', layout: 'main', permission: 'operation:pricePlan' },
  { path: '/operation/discountPlan', layout: 'main', permission: 'operation:discountPlan' },
  {
    path: '/operation/orderManage/orderQuery',
    layout: 'main',
    permission: 'operation:orderManage:orderQuery',
  },
  {
    path: '/operation/orderManage/abnormalOrder',
    layout: 'main',
    permission: 'operation:orderManage:abnormalOrder',
  },
  {
    path: '/operation/orderManage/operationLog',
    layout: 'main',
    permission: 'operation:orderManage:operationLog',
  }, // order operation log (spec §2: Orders menu)
  { path: '/report/components/session', layout: 'main', permission: 'charging_order:view' },
  { path: '/operation/reservation', layout: 'main', permission: 'operation:reservation' },
  // IC cards (features/iccard); /iccard/group_basic_info is among the spec's routes above.
  { path: '/iccard/customer', layout: 'main', permission: 'iccard:customer' },
  { path: '/iccard/cardManage', layout: 'main', permission: 'iccard:cardManage' },
  { path: '/iccard/driverCard', layout: 'main', permission: 'iccard:driverCard' },
  { path: '/iccard/recharge', layout: 'main', permission: 'iccard:recharge' },
  { path: '/iccard/consumption', layout: 'main', permission: 'iccard:consumption' },
  { path: '/iccard/groupAccount', layout: 'main', permission: 'iccard:groupAccount' },
  { path: '/iccard/bill', layout: 'main', permission: 'iccard:bill' },
  { path: '/report/components/icCard', layout: 'main', permission: 'iccard:cardManage:query' },
  // Administration (features/admin): users, roles, organisations, resources, dictionaries, settings.
  { path: '/sys/user', layout: 'main', permission: 'sys:user' },
  { path: '/sys/role', layout: 'main', permission: 'sys:role' },
  { path: '/sys/org', layout: 'main', permission: 'sys:org' },
  { path: '/sys/resource', layout: 'main', permission: 'sys:resource' },
  { path: '/sys/dict', layout: 'main', permission: 'sys:dict' },
  { path: '/sys/config', layout: 'main', permission: 'sys:config' },
  { path: '/sys/parameter', layout: 'main', permission: 'sys:parameter' },
  { path: '/sys/thirdParty', layout: 'main', permission: 'sys:thirdParty' },
  // Message centre (features/messages); the send log is a tab of /msg/event.
  { path: '/msg/config', layout: 'main', permission: 'msg:config' },
  { path: '/msg/template', layout: 'main', permission: 'msg:template' },
  { path: '/msg/group', layout: 'main', permission: 'msg:group' },
  { path: '/msg/event', layout: 'main', permission: 'msg:event' },
  { path: '/msg/alerts', layout: 'main', permission: 'msg:alerts' },
  // Live monitoring (features/monitoring).
  { path: '/operation/stationMonitor', layout: 'main', permission: 'operation:stationMonitor' },
  { path: '/operation/pileMonitor', layout: 'main', permission: 'operation:pileMonitor' },
  { path: '/operation/busList', layout: 'main', permission: 'operation:busList' },
  // Basic data (features/assets); the spec's two station routes above are served by it too.
  { path: '/basic/station', layout: 'main', permission: 'basic:station' },
  { path: '/basic/host', layout: 'main', permission: 'basic:host' },
  { path: '/basic/gun', layout: 'main', permission: 'basic:gun' },
  { path: '/basic/vehicle', layout: 'main', permission: 'basic:vehicle' },
  { path: '/basic/cardConfig', layout: 'main', permission: 'basic:cardConfig' },
  { path: '/basic/company', layout: 'main', permission: 'basic:company' },
  { path: '/basic/branch', layout: 'main', permission: 'basic:branch' },
  { path: '/basic/fleet', layout: 'main', permission: 'basic:fleet' },
  { path: '/basic/line', layout: 'main', permission: 'basic:line' },
  { path: '/basic/transformer', layout: 'main', permission: 'basic:transformer' },
  { path: '/basic/manufacturer', layout: 'main', permission: 'basic:manufacturer' },
  { path: '/basic/operator', layout: 'main', permission: 'basic:operator' },
  { path: '/basic/region', layout: 'main', permission: 'basic:region' },
  { path: '/basic/label', layout: 'main', permission: 'basic:label' },
  { path: '/basic/parkingSpace', layout: 'main', permission: 'basic:parkingSpace' },
  { path: '/basic/camera', layout: 'main', permission: 'basic:camera' },
  { path: '/basic/alarmCode', layout: 'main', permission: 'basic:alarmCode' },
  { path: '/basic/stopCode', layout: 'main', permission: 'basic:stopCode' },
  { path: '/basic/maintenancePersonnel', layout: 'main', permission: 'basic:maintenancePersonnel' },
  { path: '/basic/peakTime', layout: 'main', permission: 'basic:peakTime' },
  { path: '/basic/stationFee', layout: 'main', permission: 'basic:stationFee' },
] as const satisfies readonly KnownRoute[];

export type KnownPath = (typeof knownRoutes)[number]['path'];

/** A react-router `lazy` loader for one page (see lazyPage in loadChunk.ts). */
export type LazyPageRoute = () => Promise<{ Component: ComponentType }>;

/** What a feature exports: pages for some of the known paths. */
export type FeatureRoutes = Partial<Record<KnownPath, LazyPageRoute>>;
