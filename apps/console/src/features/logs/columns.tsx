import type { LoginLogView, OperationLogView } from '@voltdepot/shared-contracts';
import { Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { formatDateTime } from '../../app/format/formatDateTime';

const outcome = (t: TFunction, success: boolean) =>
  success ? <Tag color="success">{t('logs.succeeded')}</Tag> : <Tag color="error">{t('logs.failed')}</Tag>;

export function operationLogColumns(t: TFunction): ColumnsType<OperationLogView> {
  return [
    {
      key: 'createdAt',
      title: t('logs.time'),
      dataIndex: 'createdAt',
      width: 180,
      render: (v: string) => formatDateTime(v),
    },
    {
      key: 'username',
      title: t('logs.username'),
      dataIndex: 'username',
      width: 140,
      render: (v: string | null) => v ?? '-',
    },
    { key: 'method', title: t('logs.method'), dataIndex: 'method', width: 90 },
    {
      key: 'path',
      title: t('logs.path'),
      dataIndex: 'path',
      render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
    },
    { key: 'status', title: t('logs.status'), dataIndex: 'status', width: 90 },
    {
      key: 'success',
      title: t('logs.result'),
      dataIndex: 'success',
      width: 100,
      render: (v: boolean) => outcome(t, v),
    },
    { key: 'ip', title: t('logs.ip'), dataIndex: 'ip', width: 140, render: (v: string | null) => v ?? '-' },
    { key: 'durationMs', title: t('logs.duration'), dataIndex: 'durationMs', width: 110 },
  ];
}

export function loginLogColumns(t: TFunction): ColumnsType<LoginLogView> {
  return [
    {
      key: 'createdAt',
      title: t('logs.time'),
      dataIndex: 'createdAt',
      width: 180,
      render: (v: string) => formatDateTime(v),
    },
    { key: 'username', title: t('logs.username'), dataIndex: 'username', width: 160 },
    {
      key: 'success',
      title: t('logs.result'),
      dataIndex: 'success',
      width: 100,
      render: (v: boolean) => outcome(t, v),
    },
    { key: 'reason', title: t('logs.reason'), dataIndex: 'reason', render: (v: string | null) => v ?? '-' },
    { key: 'ip', title: t('logs.ip'), dataIndex: 'ip', width: 140, render: (v: string | null) => v ?? '-' },
    {
      key: 'userAgent',
      title: t('logs.userAgent'),
      dataIndex: 'userAgent',
      ellipsis: true,
      render: (v: string | null) => v ?? '-',
    },
  ];
}
