import type { LocaleMessages } from './zh-CN';

export const enUS: LocaleMessages = {
  app: {
    title: 'Voltdepot',
    subtitle: 'Electric bus depot charging operations',
  },
  menu: {
    home: 'Home',
    welcome: 'Welcome',
  },
  header: {
    language: 'Language',
  },
  locale: {
    zhCN: '简体中文',
    enUS: 'English',
  },
  request: {
    sessionExpired: 'login status expired, please log in again',
    fileDownloadFailed: 'file download failed',
  },
  chunk: {
    loadError: 'Chunk load error',
    cssLoadError: 'CSS chunk load error',
    moduleNotFound: 'Cannot find module',
    hint: 'The console may have been updated. Reload the page to get the latest version.',
    reload: 'Reload',
  },
  error: {
    title: 'Something went wrong',
    backHome: 'Back to home',
  },
  notFound: {
    title: '404',
    subtitle: 'Sorry, the page you visited does not exist.',
  },
  home: {
    title: 'Home',
    intro:
      'Stations, chargers, vehicles, alarms and the other business areas appear in the menu as they are built.',
    now: 'Current time: {{time}}',
  },
  welcome: {
    title: 'Welcome to Voltdepot',
    intro:
      'The back office for electric bus depot charging: stations and chargers, dispatch, IC cards, reconciliation, work orders, alerts and messages.',
  },
  login: {
    title: 'Sign in',
    pending: 'Sign-in comes with the Core API',
    explanation:
      'Signing in takes a user name, a password and a verification code, checked by the Core API, which issues the access token. Until the Core API serves sign-in, this page is a placeholder. An expired session also lands here.',
    toHome: 'Go to home',
  },
};
