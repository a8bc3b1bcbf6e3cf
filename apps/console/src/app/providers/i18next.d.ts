import 'i18next';
import type { zhCN } from '../../locales/zh-CN';

// Makes t('some.key') a compile error when the key does not exist.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof zhCN };
  }
}
