import { adminZhCN } from '../features/admin/locales';
import { homeZhCN } from '../features/home/locales';
import { welcomeZhCN } from '../features/welcome/locales';
import { billingZhCN } from '../features/billing/locales';
import { iccardBillZhCN } from '../features/iccard/billLocales';
import { icCardZhCN } from '../features/iccard/locales';
import { assetsZhCN } from '../features/assets/locales';
import { monitoringZhCN } from '../features/monitoring/locales';
import { messagesZhCN } from '../features/messages/locales';
import { serverErrorZhCN } from '../request/locales';
import { timeZoneZhCN } from '../app/format/locales';
import { resourceLabelsZhCN } from './resourceLabels';

/**
 * Simplified Chinese, the default language. Its shape is the type every other locale must match,
 * so a key added here and forgotten in en-US fails the type check (and locales.spec.ts).
 */
export const zhCN = {
  app: {
    title: 'Voltdepot',
    subtitle: '电动公交场站充电运营后台',
  },
  menu: {
    navigation: '主菜单',
    // The platform setting systemName holds this key (spec §2: a title containing 'menu' is translated).
    system: { name: 'Voltdepot 充电运营平台' },
    // Seeded resources (menus and buttons) by code, ':' written as '_': resourceLabels.ts.
    ...resourceLabelsZhCN,
  },
  header: {
    language: '语言',
    bigScreen: '数据大屏',
    desktopHome: '系统桌面',
  },
  notice: {
    inAppMessage: '站内消息',
    noData: '暂无数据',
    viewMore: '查看更多',
    bell: '消息通知',
    inbox: '站内信',
    content: '内容',
    readFlag: '状态',
    read: '已读',
    unread: '未读',
    sendTime: '发送时间',
    sender: '发送人',
    title: '标题',
    time: '时间',
    markRead: '标记已读',
    markAllRead: '全部标记已读',
    delete: '删除',
    tickOneRow: '请至少勾选一行',
    operationSuccessful: '操作成功',
    confirmDelete: '确定要删除这些数据吗？',
    prompt: '提示',
    deletedSuccessfully: '删除成功',
    deletionFailed: '删除失败',
    stoppedNormally: '充电正常停止',
    stoppedAbnormally: '充电异常停止告警',
    orderAmount: '订单金额：{{amount}} 元',
    bodyNormal: '充电桩{{pile}}的{{gun}}号枪充电正常结束，原因：{{reason}}{{energy}}',
    bodyAbnormal:
      '充电桩{{pile}}的{{gun}}号枪充电异常停止，原因：{{reason}}{{energy}}，交易号{{transaction}}',
    bodyEnergy: '，充电量{{kwh}}千瓦时',
    orderHeld: '订单异常，待审核',
    stopNotices: '充电停止通知',
    moreStops_one: '还有 {{count}} 条充电停止通知',
    moreStops_other: '还有 {{count}} 条充电停止通知',
    showWaiting: '展开',
    hideWaiting: '收起',
    dismiss: '关闭',
    dismissAll: '全部关闭',
  },
  locale: {
    zhCN: '简体中文',
    enUS: 'English',
  },
  common: {
    ok: '确定',
    cancel: '取消',
    query: '查询',
    retry: '重试',
    total: '共 {{total}} 条',
  },
  grid: {
    query: '查询',
    add: '新增',
    view: '查看',
    edit: '编辑',
    delete: '删除',
    deleted: '删除成功',
    deleteFailed: '未能删除',
    export: '导出',
    exported: '已导出 {{name}}',
    more: '更多',
    actions: '操作',
    prompt: '提示',
    sequence: '序号',
    filter: '输入名称或编码筛选',
  },
  request: {
    sessionExpired: '登录状态已过期，请重新登录',
    fileDownloadFailed: '文件下载失败',
  },
  serverError: serverErrorZhCN,
  chunk: {
    loadError: '页面模块加载失败',
    cssLoadError: '页面样式加载失败',
    moduleNotFound: '找不到模块',
    hint: '系统可能已经更新，请刷新页面以加载最新版本。',
    reload: '刷新页面',
  },
  error: {
    title: '页面出错了',
    backHome: '返回首页',
  },
  notFound: {
    title: '404',
    subtitle: '抱歉，您访问的页面不存在。',
  },
  forbidden: {
    title: '403',
    subtitle: '抱歉，您没有访问此页面的权限。',
  },
  session: {
    loadFailed: '无法加载用户信息',
    loadFailedHint: '服务暂时无法访问，请检查网络后重试。',
  },
  user: {
    menu: '用户菜单',
    changePassword: '修改密码',
    logout: '退出登录',
    secondFactorMissing: '此管理员账号未开启双重验证：请在右上角用户菜单的“双重验证”中开启。',
  },
  password: {
    title: '修改密码',
    old: '原密码',
    new: '新密码',
    confirm: '确认新密码',
    oldRequired: '请输入原密码',
    newRequired: '请输入新密码',
    confirmRequired: '请再次输入新密码',
    mismatch: '两次输入的密码不一致',
    tooLong: '密码不能超过128位',
    changed: '密码修改成功',
  },
  home: homeZhCN,
  welcome: welcomeZhCN,
  login: {
    title: '账号登录',
    username: '用户名',
    password: '密码',
    captcha: '验证码',
    captchaImage: '验证码图片',
    captchaRefresh: '看不清？点击换一张',
    submit: '登录',
    usernameInvalid: '请输入正确的用户名',
    passwordMin: '密码不能少于6位',
    captchaRequired: '验证码不能为空',
    totp: '动态验证码',
    totpRequired: '请输入动态验证码或恢复码',
    totpHint: '该账号已开启双重验证：输入身份验证器中的 6 位动态码，或一个未使用的恢复码。',
  },
  logs: {
    title: '日志管理',
    operationLog: '操作日志',
    loginLog: '登录日志',
    time: '时间',
    username: '用户名',
    usernamePlaceholder: '请输入用户名',
    method: '方法',
    path: '路径',
    period: '时间范围',
    start: '开始时间',
    end: '结束时间',
    pathPlaceholder: '请输入路径',
    status: '状态码',
    result: '结果',
    all: '全部',
    succeeded: '成功',
    failed: '失败',
    ip: 'IP 地址',
    duration: '耗时（毫秒）',
    reason: '原因',
    userAgent: '浏览器',
    export: '导出',
    exported: '已导出 {{name}}',
    nothingAllowed: '您没有查看日志的权限',
  },
  screen: {
    title: '数据大屏',
    refreshNote: '每分钟自动刷新',
    noSource: '暂无数据源（占位）',
    noPermission: '无权查看',
    placeholder: '占位：数据源尚未接入，由报表功能提供',
    totals: {
      organizations: '组织与场站',
      users: '用户数',
      pricePlans: '电价方案',
      stations: '充电站',
      piles: '充电桩',
      guns: '充电枪',
      chargingNow: '正在充电',
      energyToday: '今日充电量（kWh）',
    },
    panels: {
      stationRanking: '场站充电排行',
      map: '场站分布',
      power: '实时充电功率',
      energy: '近 7 日充电量',
      alarms: '实时告警',
    },
  },
  messages: messagesZhCN,
  monitoring: monitoringZhCN,
  assets: assetsZhCN,
  admin: adminZhCN,
  billing: billingZhCN,
  iccardBill: iccardBillZhCN,
  iccard: icCardZhCN,
  timeZone: timeZoneZhCN,
};

type LocaleShape<T> = { [K in keyof T]: T[K] extends string ? string : LocaleShape<T[K]> };

/** Every locale has exactly the keys of zh-CN, with string leaves. */
export type LocaleMessages = LocaleShape<typeof zhCN>;
