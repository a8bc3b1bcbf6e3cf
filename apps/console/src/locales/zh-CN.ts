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
    home: '首页',
    welcome: '欢迎',
  },
  header: {
    language: '语言',
  },
  locale: {
    zhCN: '简体中文',
    enUS: 'English',
  },
  request: {
    sessionExpired: '登录状态已过期，请重新登录',
    fileDownloadFailed: '文件下载失败',
  },
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
  home: {
    title: '首页',
    intro: '场站、充电桩、车辆和告警等业务功能完成后会出现在左侧菜单中。',
    now: '当前时间：{{time}}',
  },
  welcome: {
    title: '欢迎使用 Voltdepot',
    intro: '这里是电动公交场站充电的运营后台：场站与充电桩、调度、IC 卡、对账、工单、告警与消息。',
  },
  login: {
    title: '登录',
    pending: '登录功能将随核心 API 一起提供',
    explanation:
      '登录需要输入用户名、密码和验证码，由核心 API 校验后签发访问令牌。在核心 API 提供登录接口之前，此页面仅作占位。会话过期时也会回到这里。',
    toHome: '前往首页',
  },
};

type LocaleShape<T> = { [K in keyof T]: T[K] extends string ? string : LocaleShape<T[K]> };

/** Every locale has exactly the keys of zh-CN, with string leaves. */
export type LocaleMessages = LocaleShape<typeof zhCN>;
