import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';

export type LoginForm = { username: string; password: string; captchaCode: string; totpCode?: string };

/** The user-name rule of the Core API (3 to 32 of letters, digits and _ . @ -). */
export const USERNAME_PATTERN = /^[A-Za-z0-9_.@-]{3,32}$/;
/** Spec §5: the password has at least 6 characters. */
export const PASSWORD_MIN_LENGTH = 6;

/** Spec §5 "Login": a correct user name, a password of at least 6 characters, a verification code. */
export const loginRules = {
  username: (t: TFunction): Rule[] => [
    {
      validator: (_rule, value: unknown) =>
        typeof value === 'string' && USERNAME_PATTERN.test(value.trim())
          ? Promise.resolve()
          : Promise.reject(new Error(t('login.usernameInvalid'))),
    },
  ],
  password: (t: TFunction): Rule[] => [
    {
      validator: (_rule, value: unknown) =>
        typeof value === 'string' && value.length >= PASSWORD_MIN_LENGTH
          ? Promise.resolve()
          : Promise.reject(new Error(t('login.passwordMin'))),
    },
  ],
  captchaCode: (t: TFunction): Rule[] => [
    {
      validator: (_rule, value: unknown) =>
        typeof value === 'string' && value.trim() !== ''
          ? Promise.resolve()
          : Promise.reject(new Error(t('login.captchaRequired'))),
    },
  ],
};
