import type { ProColumns } from '@ant-design/pro-components';
import type { LoginLogView, OperationLogView } from '@voltdepot/console-api-client';
import { Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import type { Dayjs } from 'dayjs';
import { pickedRangeParams } from '../../app/format/businessPicker';
import { formatDateTime } from '../../app/format/formatDateTime';
import { WithTimeZoneHint } from '../../app/format/TimeZoneHint';
import { timeColumnTitle } from '../../app/grid/columns';
import { LOG_METHODS } from './hooks/useLogGrid';

const outcome = (t: TFunction, success: boolean) =>
  success ? <Tag color="success">{t('logs.succeeded')}</Tag> : <Tag color="error">{t('logs.failed')}</Tag>;

/**
 * The search form's period (`start`/`end`, both inclusive; not a table column): picked in business time
 * (labelled with its offset), sent as instants with the business offset so the server reads the same
 * period whatever its zone or the browser's.
 */
function periodSearch<T>(t: TFunction): ProColumns<T> {
  return {
    key: 'period',
    title: <WithTimeZoneHint title={t('logs.period')} wording />,
    dataIndex: 'period',
    valueType: 'dateTimeRange',
    hideInTable: true,
    fieldProps: { placeholder: [t('logs.start'), t('logs.end')] },
    search: {
      transform: (value: [Dayjs | string, Dayjs | string] | undefined) => pickedRangeParams(value),
    },
  };
}

function usernameColumn<T>(t: TFunction, width: number): ProColumns<T> {
  return {
    key: 'username',
    title: t('logs.username'),
    dataIndex: 'username',
    width,
    fieldProps: { placeholder: t('logs.usernamePlaceholder') },
    render: (_dom, row) => (row as { username: string | null }).username ?? '-',
  };
}

function resultColumn<T extends { success: boolean }>(t: TFunction): ProColumns<T> {
  return {
    key: 'success',
    title: t('logs.result'),
    dataIndex: 'success',
    width: 100,
    valueType: 'select',
    valueEnum: { true: { text: t('logs.succeeded') }, false: { text: t('logs.failed') } },
    fieldProps: { placeholder: t('logs.all') },
    render: (_dom, row) => outcome(t, row.success),
  };
}

const timeColumn = <T extends { createdAt: string }>(t: TFunction): ProColumns<T> => ({
  key: 'createdAt',
  title: timeColumnTitle(t('logs.time')),
  dataIndex: 'createdAt',
  width: 180,
  search: false,
  render: (_dom, row) => formatDateTime(row.createdAt),
});

/** Searchable by period, user name, method, path and result (what `/api/operationLog` filters by). */
export function operationLogColumns(t: TFunction): ProColumns<OperationLogView>[] {
  return [
    periodSearch(t),
    timeColumn(t),
    usernameColumn(t, 140),
    {
      key: 'method',
      title: t('logs.method'),
      dataIndex: 'method',
      width: 90,
      valueType: 'select',
      valueEnum: Object.fromEntries(LOG_METHODS.map((method) => [method, { text: method }])),
      fieldProps: { placeholder: t('logs.all') },
    },
    {
      key: 'path',
      title: t('logs.path'),
      dataIndex: 'path',
      fieldProps: { placeholder: t('logs.pathPlaceholder') },
      render: (_dom, row) => <Typography.Text code>{row.path}</Typography.Text>,
    },
    { key: 'status', title: t('logs.status'), dataIndex: 'status', width: 90, search: false },
    resultColumn(t),
    {
      key: 'ip',
      title: t('logs.ip'),
      dataIndex: 'ip',
      width: 140,
      search: false,
      render: (_dom, row) => row.ip ?? '-',
    },
    { key: 'durationMs', title: t('logs.duration'), dataIndex: 'durationMs', width: 110, search: false },
  ];
}

/** Searchable by period, user name and result (what `/api/loginLog` filters by). */
export function loginLogColumns(t: TFunction): ProColumns<LoginLogView>[] {
  return [
    periodSearch(t),
    timeColumn(t),
    usernameColumn(t, 160),
    resultColumn(t),
    {
      key: 'reason',
      title: t('logs.reason'),
      dataIndex: 'reason',
      search: false,
      render: (_dom, row) => row.reason ?? '-',
    },
    {
      key: 'ip',
      title: t('logs.ip'),
      dataIndex: 'ip',
      width: 140,
      search: false,
      render: (_dom, row) => row.ip ?? '-',
    },
    {
      key: 'userAgent',
      title: t('logs.userAgent'),
      dataIndex: 'userAgent',
      ellipsis: true,
      search: false,
      render: (_dom, row) => row.userAgent ?? '-',
    },
  ];
}
