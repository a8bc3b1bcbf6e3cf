import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { GuardedButton, Permission, usePermission } from '@voltdepot/console-ui';
import { App, Input, Space, Typography } from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { filterTree, flatten } from '../treeNodes';

type Node = { id: number; children: Node[] };

/** Leaves without a `children` array, so the table shows no expand button on them. */
function withoutEmptyChildren<T extends Node>(nodes: readonly T[]): T[] {
  return nodes.map((n) =>
    n.children.length === 0
      ? ({ ...n, children: undefined } as unknown as T)
      : { ...n, children: withoutEmptyChildren(n.children) },
  );
}

export type TreeGridProps<T extends Node> = {
  title: string;
  testId: string;
  data: readonly T[] | undefined;
  loading: boolean;
  columns: ProColumns<T>[];
  /** Text a node is found by with the search box. */
  searchText: (node: T) => string;
  permissions: { add: string; edit: string; delete: string };
  /** Top-level add (absent: nodes are only added under others). */
  onAddRoot?: () => void;
  addRootLabel?: string;
  /** Add under a node; return false to hide the link for that node. */
  onAddChild?: (node: T) => void;
  canAddChild?: (node: T) => boolean;
  onEdit: (node: T) => void;
  onDelete: (node: T) => Promise<unknown>;
  deleteConfirm: (node: T) => string;
  canDelete?: (node: T) => boolean;
  onReload: () => void;
  extraToolbar?: ReactNode;
  rowTestId: (node: T) => string;
};

/** A tree (organisations, resources, dictionaries) as a table: search, add, add below, edit, delete. */
export function TreeGrid<T extends Node>(props: TreeGridProps<T>) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  const [filter, setFilter] = useState('');
  const canAdd = usePermission(props.permissions.add);
  const canEdit = usePermission(props.permissions.edit);
  const canDelete = usePermission(props.permissions.delete);

  const visible = useMemo(() => {
    const text = filter.trim().toLowerCase();
    const data = (props.data ?? []) as T[];
    return text === ''
      ? data
      : (filterTree(data as Node[], (n) =>
          props
            .searchText(n as T)
            .toLowerCase()
            .includes(text),
        ) as unknown as T[]);
  }, [filter, props]);
  // Expanded when short (organisations) or filtered; long trees (resources, dictionaries) start closed.
  const expanded = useMemo(() => {
    const all = flatten(visible as Node[]);
    return filter !== '' || all.length <= 40 ? all.map((n) => n.id) : [];
  }, [visible, filter]);

  const actions: ProColumns<T> = {
    title: t('admin.common.actions'),
    key: 'actions',
    fixed: 'right',
    width: 220,
    render: (_dom, node) => (
      <Space size="small">
        {canAdd && props.onAddChild && (props.canAddChild?.(node) ?? true) && (
          <Typography.Link
            onClick={() => props.onAddChild!(node)}
            data-testid={`${props.rowTestId(node)}-add`}
          >
            {t('admin.common.addChild')}
          </Typography.Link>
        )}
        {canEdit && (
          <Typography.Link onClick={() => props.onEdit(node)} data-testid={`${props.rowTestId(node)}-edit`}>
            {t('admin.common.edit')}
          </Typography.Link>
        )}
        {canDelete && (props.canDelete?.(node) ?? true) && (
          <Typography.Link
            type="danger"
            data-testid={`${props.rowTestId(node)}-delete`}
            onClick={() =>
              modal.confirm({
                title: t('admin.common.prompt'),
                content: props.deleteConfirm(node),
                okButtonProps: { danger: true },
                onOk: async () => {
                  try {
                    await props.onDelete(node);
                    void message.success(t('admin.common.deleted'));
                    props.onReload();
                  } catch {
                    // shown by the request layer
                  }
                },
              })
            }
          >
            {t('admin.common.delete')}
          </Typography.Link>
        )}
      </Space>
    ),
  };

  return (
    <div data-testid={props.testId}>
      <ProTable<T>
        headerTitle={props.title}
        rowKey="id"
        columns={[...props.columns, actions]}
        dataSource={withoutEmptyChildren(visible)}
        loading={props.loading}
        search={false}
        options={false}
        cardBordered
        pagination={false}
        scroll={{ x: 1000 }}
        expandable={{ expandedRowKeys: undefined, defaultExpandedRowKeys: expanded }}
        key={`${filter}:${expanded.length}`}
        onRow={(node) => ({ 'data-testid': props.rowTestId(node) }) as object}
        toolBarRender={() => [
          <Input.Search
            key="search"
            allowClear
            placeholder={t('admin.common.searchTree')}
            onChange={(e) => setFilter(e.target.value)}
            style={{ width: 240 }}
            data-testid={`${props.testId}-search`}
          />,
          <GuardedButton key="reload" icon={<ReloadOutlined />} onClick={props.onReload}>
            {t('admin.common.refresh')}
          </GuardedButton>,
          ...(props.onAddRoot
            ? [
                <Permission key="add" code={props.permissions.add}>
                  <GuardedButton
                    type="primary"
                    icon={<PlusOutlined />}
                    onClick={props.onAddRoot}
                    data-testid={`${props.testId}-add`}
                  >
                    {props.addRootLabel ?? t('admin.common.add')}
                  </GuardedButton>
                </Permission>,
              ]
            : []),
          props.extraToolbar,
        ]}
      />
    </div>
  );
}
