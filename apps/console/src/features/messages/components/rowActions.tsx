import type { ProColumns } from '@ant-design/pro-components';
import { GuardedButton, Permission } from '@voltdepot/console-ui';
import { Space } from 'antd';
import type { TFunction } from 'i18next';

export type RowActionsOptions<T> = {
  /** The button permissions of the list (`msg:<resource>:edit`, `msg:<resource>:delete`). */
  permissions: { edit: string; delete: string };
  edit: (row: T) => void;
  /** Asks for confirmation, then deletes (see useDeleteAction). */
  remove: (row: T) => void;
  /** A "view" link open to everyone who sees the list. */
  view?: (row: T) => void;
  /** Rows that cannot be deleted (e.g. templates in use). */
  deletable?: (row: T) => boolean;
  width?: number;
};

/** The actions column of the message-centre lists: view, edit and delete, each behind its permission. */
export function rowActionsColumn<T>(t: TFunction, options: RowActionsOptions<T>): ProColumns<T> {
  const { permissions, edit, remove, view, deletable } = options;
  return {
    title: t('messages.common.actions'),
    key: 'actions',
    valueType: 'option',
    fixed: 'right',
    width: options.width ?? (view ? 180 : 140),
    render: (_dom, row) => (
      <Space size={0}>
        {view && (
          <GuardedButton type="link" size="small" onClick={() => view(row)}>
            {t('messages.common.view')}
          </GuardedButton>
        )}
        <Permission code={permissions.edit}>
          <GuardedButton type="link" size="small" onClick={() => edit(row)}>
            {t('messages.common.edit')}
          </GuardedButton>
        </Permission>
        <Permission code={permissions.delete}>
          <GuardedButton
            type="link"
            size="small"
            danger
            disabled={deletable ? !deletable(row) : false}
            onClick={() => remove(row)}
          >
            {t('messages.common.delete')}
          </GuardedButton>
        </Permission>
      </Space>
    ),
  };
}
