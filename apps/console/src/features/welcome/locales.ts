/** Strings of the welcome page (registered as `welcome` in src/locales): a short orientation. */
export const welcomeZhCN = {
  title: '欢迎使用 {{title}}',
  intro: '电动公交场站充电的运营后台：实时监控场站、充电桩和车辆，查询和审核充电订单，维护电价与基础数据。',
  home: '每天的在线、充电、电量、收入和故障数据在首页。',
  homeLink: '打开首页',
  start: '常用功能',
  noLinks: '您的角色还不能打开这些页面，请联系管理员分配权限。',
  links: {
    stationMonitor: { title: '场站监控', text: '地图上的场站，以及每个场站充电桩和充电枪的实时状态。' },
    pileMonitor: { title: '充电桩监控', text: '按状态筛选充电桩，远程启动、停止或重启。' },
    busList: { title: '车辆列表', text: '每辆车的 SOC 和充电状态，低电量车辆一目了然。' },
    orderQuery: { title: '订单查询', text: '充电订单的电量、金额和时段明细，可导出。' },
    abnormalOrder: { title: '异常订单', text: '结算时被挂起的订单，审核后放行或驳回。' },
    pricePlan: { title: '电价方案', text: '尖峰平谷时段的电价与服务费，以及适用的场站。' },
    stations: { title: '充电站', text: '场站档案、位置、平面图和占位费设置。' },
    alerts: { title: '告警消息', text: '消息中心推送的告警与站内信。' },
    users: { title: '用户管理', text: '用户、角色与数据权限。' },
  },
} as const;

export const welcomeEnUS = {
  title: 'Welcome to {{title}}',
  intro:
    'The back office for electric bus depot charging: watch stations, chargers and buses live, look up and review charging orders, and keep prices and basic data.',
  home: "The home page shows the day's figures: what is online, charging, the energy, the revenue and open faults.",
  homeLink: 'Open the home page',
  start: 'Where to start',
  noLinks: 'Your role opens none of these screens; ask an administrator for access.',
  links: {
    stationMonitor: {
      title: 'Station monitoring',
      text: 'Stations on the map and the live state of their chargers and guns.',
    },
    pileMonitor: {
      title: 'Pile monitoring',
      text: 'Chargers filtered by state; start, stop or reset them remotely.',
    },
    busList: { title: 'Bus list', text: 'SoC and charging state of every bus, low batteries first to see.' },
    orderQuery: {
      title: 'Order query',
      text: 'Charging orders with energy, amounts and time bands; exportable.',
    },
    abnormalOrder: {
      title: 'Abnormal orders',
      text: 'Orders held at settlement, to approve or reject.',
    },
    pricePlan: {
      title: 'Price plans',
      text: 'Electricity prices and service fees by time band, and their stations.',
    },
    stations: { title: 'Stations', text: 'Station records, location, site plan and occupation fees.' },
    alerts: { title: 'Alerts', text: 'Alerts and inbox messages of the message centre.' },
    users: { title: 'Users', text: 'Users, roles and data scope.' },
  },
} as const;
