import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';

/** Field rules that match the server's (libs/server/identity user.dto.ts, shared/schemas.ts). */
export const adminRules = {
  username: (t: TFunction): Rule[] => [
    { required: true, whitespace: true, message: t('admin.user.usernameRequired') },
    { min: 3, max: 32, message: t('admin.user.usernameLength') },
    { pattern: /^[A-Za-z0-9_.@-]+$/, message: t('admin.user.usernameChars') },
  ],
  password: (t: TFunction): Rule[] => [
    { required: true, message: t('admin.user.passwordRequired') },
    { min: 6, message: t('admin.user.passwordMin') },
    { max: 128, message: t('admin.user.passwordMax') },
  ],
  confirmPassword: (t: TFunction, field = 'password'): Rule[] => [
    { required: true, message: t('admin.user.confirmRequired') },
    ({ getFieldValue }) => ({
      validator: (_rule, value) =>
        !value || getFieldValue(field) === value
          ? Promise.resolve()
          : Promise.reject(new Error(t('admin.user.passwordMismatch'))),
    }),
  ],
  name: (t: TFunction, label: string): Rule[] => [
    { required: true, whitespace: true, message: t('admin.common.required', { label }) },
    { max: 64, message: t('admin.common.tooLong', { label, max: 64 }) },
  ],
  code: (t: TFunction, label: string): Rule[] => [
    { required: true, whitespace: true, message: t('admin.common.required', { label }) },
    { max: 64, message: t('admin.common.tooLong', { label, max: 64 }) },
    { pattern: /^[A-Za-z0-9_:.-]+$/, message: t('admin.common.codeChars') },
  ],
  phone: (t: TFunction): Rule[] => [
    { max: 32, message: t('admin.common.tooLong', { label: t('admin.user.phone'), max: 32 }) },
    { pattern: /^[0-9+\- ]*$/, message: t('admin.user.phoneChars') },
  ],
  email: (t: TFunction): Rule[] => [{ type: 'email', message: t('admin.user.emailInvalid') }],
};

/** An antd tree (TreeSelect / Tree) from id/children nodes. */
export type TreeOption = { value: number; key: number; title: string; children: TreeOption[] };

export function treeOptions<T extends { id: number; children: T[] }>(
  nodes: readonly T[],
  label: (node: T) => string,
): TreeOption[] {
  return nodes.map((n) => ({
    value: n.id,
    key: n.id,
    title: label(n),
    children: treeOptions(n.children, label),
  }));
}
