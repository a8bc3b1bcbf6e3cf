import { DownloadOutlined, PlusOutlined, SearchOutlined } from '@ant-design/icons';
import { ProTable, type ProColumns, type ProTableProps } from '@ant-design/pro-components';
import { GuardedButton, hasPermission, usePermissions } from '@voltdepot/console-ui';
import { App, Button, Dropdown, Input, Space } from 'antd';
import { useMemo, useState, type Key, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Locale } from '../../locales';
import type { QueryParams } from '../../request';
import { useLocale } from '../providers/useLocale';
import { filterTree, flatten, withoutEmptyChildren, type TreeNode } from './treeRows';
import type { Grid } from './useGrid';

/** A resource code, or several that are all needed. */
export type GridPermission = string | readonly string[];

/** What a toolbar or search-form button gets when pressed. */
export type GridButtonContext = { filters: QueryParams; locale: Locale };

/**
 * A button of the grid, shown to users holding its permission. 'add' and 'export' take their label and
 * icon from the grid's texts; an export resolves to the saved file's name, which the grid announces.
 */
export type GridButton = {
  key: string;
  label?: string;
  icon?: ReactNode;
  permission?: GridPermission;
  testId?: string;
  primary?: boolean;
  danger?: boolean;
  /** Shown but not pressable now (e.g. nothing selected to act on). */
  disabled?: boolean;
  onClick: (context: GridButtonContext) => unknown;
};

/**
 * An action of a row, shown to users holding its permission. 'view', 'edit' and 'delete' take their label
 * from the grid's texts; a 'delete' is red, asks its `confirm` question first, then says "deleted" and
 * reloads the list (an `onClick` resolving to false: nothing was deleted). A failure was shown by the
 * request layer and changes nothing.
 */
export type RowAction<T> = {
  key: string;
  label?: string;
  icon?: ReactNode;
  permission?: GridPermission;
  testId?: (row: T) => string;
  /** The rows it is offered for (default every row). */
  visible?: (row: T) => boolean;
  disabled?: (row: T) => boolean;
  danger?: boolean;
  /** The question asked before onClick runs. */
  confirm?: (row: T) => ReactNode;
  /** Said when that question is answered no. */
  cancelled?: string;
  onClick: (row: T) => unknown;
  /** Said after onClick resolved, and the list reloads. */
  done?: string;
  /** Listed under the row's "more" menu instead of shown as a link. */
  menu?: boolean;
};

type TableProps<T extends Record<string, unknown>> = ProTableProps<T, Record<string, unknown>>;

export type GridPageProps<T extends Record<string, unknown>> = {
  grid: Grid<T>;
  /** The table's title; without it and without toolbar content there is no toolbar row (a tab, a card). */
  title?: ReactNode;
  /** data-testid of the grid's wrapper. */
  testId?: string;
  /** Where the grid's own words are looked up first (e.g. 'messages.common'), then under `grid`. */
  texts?: string;
  rowKey?: TableProps<T>['rowKey'];
  columns: ProColumns<T>[];
  /** The search form of a paged grid: the query button's test id and buttons after it. */
  search?: { queryTestId?: string; buttons?: GridButton[]; initialValues?: Record<string, unknown> };
  /** Buttons of the table's toolbar. */
  toolbar?: GridButton[];
  /** Other toolbar content, before the buttons (a summary, a live indicator). */
  toolbarExtra?: ReactNode[];
  rowActions?: RowAction<T>[];
  /** More row content after the actions (a menu of further actions). */
  rowActionsExtra?: (row: T) => ReactNode;
  /** data-testid of a row's "more" menu. */
  moreTestId?: (row: T) => string;
  actionsWidth?: number;
  /** A first column numbering the rows across pages. */
  sequence?: boolean;
  /** A whole-rows grid shown as a tree, filtered in the browser by a search box. */
  tree?: { searchText: (row: T) => string; searchTestId?: string };
  scrollX?: number;
  pageSizeChanger?: boolean;
  emptyText?: ReactNode;
  /** What else a list needs from the table (an expanded row, totals, row selection, row attributes). */
  table?: Pick<
    TableProps<T>,
    'expandable' | 'summary' | 'rowSelection' | 'onRow' | 'size' | 'dateFormatter' | 'tableAlertRender'
  >;
};

/** The grid's words: the list's namespace first, then the common grid words. */
function useGridTexts(namespace: string | undefined) {
  const { t } = useTranslation();
  return (key: string, options?: Record<string, unknown>): string => {
    const keys = namespace ? [`${namespace}.${key}`, `grid.${key}`] : [`grid.${key}`];
    return String(t(keys as never, options as never));
  };
}

const BUTTON_ICONS: Record<string, ReactNode> = { add: <PlusOutlined />, export: <DownloadOutlined /> };

function GridButtonView({
  button,
  filters,
  text,
  primary,
}: {
  button: GridButton;
  filters: QueryParams;
  text: ReturnType<typeof useGridTexts>;
  primary: boolean;
}) {
  const { message } = App.useApp();
  const { locale } = useLocale();
  const isExport = button.key === 'export';
  return (
    <GuardedButton
      type={(button.primary ?? primary) ? 'primary' : 'default'}
      danger={button.danger}
      disabled={button.disabled}
      icon={button.icon ?? BUTTON_ICONS[button.key]}
      data-testid={button.testId}
      onClick={async () => {
        const result = await button.onClick({ filters, locale });
        if (isExport && typeof result === 'string' && result !== '') {
          void message.success(text('exported', { name: result }));
        }
      }}
    >
      {button.label ?? text(button.key)}
    </GuardedButton>
  );
}

/** Runs a row action: its question first when it has one, then what it does, then "done" and a reload. */
function useRowActionRunner(text: ReturnType<typeof useGridTexts>, reload: () => Promise<void>) {
  const { t } = useTranslation();
  const { message, modal } = App.useApp();
  return <T,>(action: RowAction<T>, row: T): Promise<void> | undefined => {
    const isDelete = action.key === 'delete';
    const done = action.done ?? (isDelete ? text('deleted') : undefined);
    const run = async () => {
      let result: unknown;
      try {
        result = await action.onClick(row);
      } catch {
        return; // the request layer has shown why
      }
      if (result === false) {
        if (isDelete) void message.info(text('deleteFailed'));
        return;
      }
      if (done !== undefined) {
        void message.success(done);
        await reload();
      }
    };
    const question = action.confirm?.(row);
    if (question === undefined) return run();
    modal.confirm({
      title: text('prompt'),
      content: question,
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: action.danger ?? isDelete, 'data-testid': 'confirm-ok' },
      onOk: run,
      onCancel: () => {
        if (action.cancelled) void message.info(action.cancelled);
      },
    });
    return undefined;
  };
}

/** The row's actions: links, those marked `menu` under "more", then what the list adds. */
function RowActions<T>({
  actions,
  row,
  text,
  run,
  moreTestId,
  extra,
}: {
  actions: RowAction<T>[];
  row: T;
  text: ReturnType<typeof useGridTexts>;
  run: ReturnType<typeof useRowActionRunner>;
  moreTestId?: string;
  extra?: ReactNode;
}) {
  const shown = actions.filter((action) => action.visible?.(row) ?? true);
  const inMenu = shown.filter((action) => action.menu);
  const label = (action: RowAction<T>) => action.label ?? text(action.key);
  return (
    <Space size={0} wrap>
      {shown
        .filter((action) => !action.menu)
        .map((action) => (
          <GuardedButton
            key={action.key}
            type="link"
            size="small"
            danger={action.danger ?? action.key === 'delete'}
            icon={action.icon}
            disabled={action.disabled?.(row) ?? false}
            data-testid={action.testId?.(row)}
            onClick={() => run(action, row)}
          >
            {label(action)}
          </GuardedButton>
        ))}
      {inMenu.length > 0 && (
        <Dropdown
          trigger={['click']}
          menu={{
            items: inMenu.map((action) => ({
              key: action.key,
              label: label(action),
              danger: action.danger ?? action.key === 'delete',
              disabled: action.disabled?.(row) ?? false,
            })),
            onClick: ({ key }) => {
              const action = inMenu.find((candidate) => candidate.key === key);
              if (action) void run(action, row);
            },
          }}
        >
          <Button type="link" size="small" data-testid={moreTestId}>
            {text('more')}
          </Button>
        </Dropdown>
      )}
      {extra}
    </Space>
  );
}

/** Rows (of a tree) matching the search box, the branches above them kept; expanded when short or searched. */
function useTreeRows<T extends Record<string, unknown>>(
  rows: T[],
  tree: GridPageProps<T>['tree'],
  filter: string,
): { rows: T[]; expanded: Key[] } {
  return useMemo(() => {
    if (!tree) return { rows, expanded: [] };
    const nodes = rows as unknown as TreeNode[];
    const text = filter.trim().toLowerCase();
    const shown =
      text === ''
        ? nodes
        : filterTree(nodes, (node) =>
            tree
              .searchText(node as unknown as T)
              .toLowerCase()
              .includes(text),
          );
    const all = flatten(shown);
    // Short trees (organisations) and searched ones open; long ones (resources, dictionaries) start closed.
    const expanded = text !== '' || all.length <= 40 ? all.map((node) => node.id) : [];
    return { rows: withoutEmptyChildren(shown) as unknown as T[], expanded };
  }, [rows, tree, filter]);
}

/**
 * The one page shell of every list: a ProTable with the list's columns, its search form (reset, a guarded
 * query button, the list's buttons), pages of `{ list, total }` from react-query (or a whole tree with a
 * search box), toolbar buttons and row actions checked against the user's permissions, exports that say
 * the saved file's name, and the grid's words in the user's language. A list says only what differs.
 */
export function GridPage<T extends Record<string, unknown>>(props: GridPageProps<T>) {
  const { grid, columns, rowActions = [], rowActionsExtra } = props;
  const { t } = useTranslation();
  const text = useGridTexts(props.texts);
  const permissions = usePermissions();
  const [treeFilter, setTreeFilter] = useState('');
  const allowed = (permission: GridPermission | undefined) =>
    permission === undefined || hasPermission(permissions, permission);
  const filters = grid.kind === 'pages' ? grid.filters : {};
  const actions = rowActions.filter((action) => allowed(action.permission));
  const { rows, expanded } = useTreeRows(grid.rows, props.tree, treeFilter);
  const runAction = useRowActionRunner(text, grid.reload);

  // Rebuilt on each render: the actions carry the page's current state.
  const allColumns: ProColumns<T>[] = [
    ...(props.sequence && grid.kind === 'pages'
      ? [
          {
            title: text('sequence'),
            key: 'sequence',
            // Wide enough for the header in either language ("Sequence" wrapped at 80 px).
            width: 100,
            search: false,
            render: (_dom: ReactNode, _row: T, index: number) => (grid.page - 1) * grid.pageSize + index + 1,
          } satisfies ProColumns<T>,
        ]
      : []),
    ...columns,
    ...(actions.length > 0 || rowActionsExtra
      ? [
          {
            title: text('actions'),
            key: 'actions',
            valueType: 'option',
            fixed: 'right',
            width: props.actionsWidth ?? 160,
            render: (_dom: ReactNode, row: T) => (
              <RowActions
                actions={actions}
                row={row}
                text={text}
                run={runAction}
                moreTestId={props.moreTestId?.(row)}
                extra={rowActionsExtra?.(row)}
              />
            ),
          } satisfies ProColumns<T>,
        ]
      : []),
  ];

  const buttons = (list: GridButton[] | undefined, primaryAdd: boolean) =>
    (list ?? [])
      .filter((button) => allowed(button.permission))
      .map((button) => (
        <GridButtonView
          key={button.key}
          button={button}
          filters={filters}
          text={text}
          primary={primaryAdd && button.key === 'add'}
        />
      ));

  const searchForm = grid.kind === 'pages' && grid.searchForm;
  // A list without a title or toolbar (a tab of logs, a message-centre card) shows no toolbar row at all.
  const toolbarShown =
    props.title !== undefined || Boolean(props.tree || props.toolbar?.length || props.toolbarExtra?.length);
  return (
    <div data-testid={props.testId}>
      <ProTable<T>
        {...props.table}
        key={props.tree ? `${treeFilter}:${expanded.length}` : undefined}
        headerTitle={props.title}
        rowKey={props.rowKey ?? 'id'}
        columns={allColumns}
        dataSource={rows}
        loading={grid.loading}
        cardBordered
        options={toolbarShown && { density: false, setting: false, reload: () => void grid.reload() }}
        scroll={props.scrollX ? { x: props.scrollX } : undefined}
        locale={props.emptyText === undefined ? undefined : { emptyText: props.emptyText }}
        pagination={
          grid.kind === 'pages'
            ? {
                current: grid.page,
                pageSize: grid.pageSize,
                total: grid.total,
                showSizeChanger: props.pageSizeChanger ?? false,
                showTotal: (total) => t('common.total', { total }),
                onChange: grid.changePage,
              }
            : false
        }
        search={
          searchForm
            ? {
                labelWidth: 'auto',
                defaultCollapsed: false,
                collapseRender: false,
                optionRender: (config, _formProps, dom) => [
                  dom[0],
                  <GuardedButton
                    key="query"
                    type="primary"
                    icon={<SearchOutlined />}
                    data-testid={props.search?.queryTestId}
                    onClick={() => config.form?.submit()}
                  >
                    {text('query')}
                  </GuardedButton>,
                  ...buttons(props.search?.buttons, false),
                ],
              }
            : false
        }
        form={props.search?.initialValues ? { initialValues: props.search.initialValues } : undefined}
        // Every search (the first with the form's initial values, a reset too) goes to the grid's query.
        beforeSearchSubmit={(params) => {
          if (grid.kind === 'pages') grid.search(params);
          return params;
        }}
        expandable={
          props.tree
            ? { defaultExpandedRowKeys: expanded, ...props.table?.expandable }
            : props.table?.expandable
        }
        toolBarRender={
          toolbarShown &&
          (() => [
            ...(props.tree
              ? [
                  <Input.Search
                    key="tree-search"
                    allowClear
                    placeholder={text('filter')}
                    onChange={(e) => setTreeFilter(e.target.value)}
                    style={{ width: 240 }}
                    data-testid={props.tree.searchTestId}
                  />,
                ]
              : []),
            ...(props.toolbarExtra ?? []),
            ...buttons(props.toolbar, true),
          ])
        }
      />
    </div>
  );
}
