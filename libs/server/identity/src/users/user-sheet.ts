import { BOOLEAN_CODES, codeEntries, ENABLED_LABELS } from '@voltdepot/shared-contracts';
import type { SpreadsheetColumn } from '@voltdepot/server-spreadsheet';

/** One user as the export writes it (codes so that an exported sheet imports again). */
export type UserSheetRow = {
  id: number;
  username: string;
  realName: string;
  phone: string | null;
  email: string | null;
  organizationCode: string;
  organizationName: string;
  roleCodes: string[];
  enabled: boolean;
  lastLoginAt: Date | null;
  createdAt: Date;
};

/** The status column's words (the console's too). */
export const ENABLED_ENTRIES = codeEntries(BOOLEAN_CODES, ENABLED_LABELS);

const DATE_TIME = 'yyyy-mm-dd hh:mm:ss';

const username: SpreadsheetColumn<UserSheetRow> = {
  key: 'username',
  header: { 'zh-CN': '用户名', 'en-US': 'User name' },
  required: true,
  note: { 'zh-CN': '3-32 位字母、数字或 _ . @ -', 'en-US': '3 to 32 letters, digits or _ . @ -' },
};
const realName: SpreadsheetColumn<UserSheetRow> = {
  key: 'realName',
  header: { 'zh-CN': '姓名', 'en-US': 'Real name' },
  required: true,
};
const phone: SpreadsheetColumn<UserSheetRow> = {
  key: 'phone',
  header: { 'zh-CN': '手机号', 'en-US': 'Phone' },
};
const email: SpreadsheetColumn<UserSheetRow> = {
  key: 'email',
  header: { 'zh-CN': '邮箱', 'en-US': 'Email' },
  width: 28,
};
const organizationCode: SpreadsheetColumn<UserSheetRow> = {
  key: 'organizationCode',
  header: { 'zh-CN': '组织机构编码', 'en-US': 'Organization code' },
  required: true,
  note: {
    'zh-CN': '组织机构的编码，须在您的数据权限范围内',
    'en-US': 'Code of an organization inside your data scope',
  },
};
const roleCodes: SpreadsheetColumn<UserSheetRow> = {
  key: 'roleCodes',
  header: { 'zh-CN': '角色编码', 'en-US': 'Role codes' },
  value: (u) => u.roleCodes.join(','),
  width: 28,
  note: { 'zh-CN': '多个角色用英文逗号分隔', 'en-US': 'Several roles separated by commas' },
};
const enabled: SpreadsheetColumn<UserSheetRow> = {
  key: 'enabled',
  header: { 'zh-CN': '状态', 'en-US': 'Status' },
  dictionary: ENABLED_ENTRIES,
  value: (u) => String(u.enabled),
  width: 12,
  note: { 'zh-CN': '留空为启用', 'en-US': 'Empty means enabled' },
};

/** The user list export. */
export const USER_EXPORT_COLUMNS: SpreadsheetColumn<UserSheetRow>[] = [
  username,
  realName,
  phone,
  email,
  organizationCode,
  { key: 'organizationName', header: { 'zh-CN': '组织机构', 'en-US': 'Organization' }, width: 24 },
  roleCodes,
  enabled,
  {
    key: 'lastLoginAt',
    header: { 'zh-CN': '最近登录', 'en-US': 'Last sign-in' },
    numFmt: DATE_TIME,
  },
  { key: 'createdAt', header: { 'zh-CN': '创建时间', 'en-US': 'Created' }, numFmt: DATE_TIME },
];

/** The import (and its template): what a new user needs, including the first password. */
export const USER_IMPORT_COLUMNS: SpreadsheetColumn<UserSheetRow>[] = [
  username,
  realName,
  {
    key: 'password',
    header: { 'zh-CN': '初始密码', 'en-US': 'Initial password' },
    required: true,
    note: { 'zh-CN': '至少 6 位', 'en-US': 'At least 6 characters' },
  },
  phone,
  email,
  organizationCode,
  roleCodes,
  enabled,
];

export const USER_TEMPLATE_EXAMPLE = {
  username: 'zhang.san',
  realName: '张三',
  password: 'Change@123',
  phone: '13800000000',
  email: 'zhang.san@example.com',
  organizationCode: 'FZ',
  roleCodes: 'operator',
  enabled: '启用',
};
