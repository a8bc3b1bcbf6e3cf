import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import {
  ModalForm,
  ProTable,
  type ActionType,
  type ProColumns,
  type ProFormInstance,
} from '@ant-design/pro-components';
import { useQueryClient } from '@tanstack/react-query';
import { GuardedButton, Permission, usePermission } from '@voltdepot/console-ui';
import { App, Col, Popconfirm, Select, Space, Tag, Typography } from 'antd';
import { useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../app/format/formatDateTime';
import { filtersOf, useGridRequest } from '../../../app/grid/useGridRequest';
import { RequestError, type QueryParams } from '../../../request';
import { assetApi, ASSET_PAGE_SIZE } from '../api/assetApi';
import { useDictionaries, type DictOption } from '../hooks/useDictionaries';
import { useRefOptions } from '../hooks/useRefOptions';
import { gridButtons } from '../permissions';
import { assetsQueryKeys } from '../queryKeys';
import type { Translate } from '../rules/formRules';
import type { AssetKind, AssetRow } from '../types';
import { AssetFormFields, fieldLabel } from './AssetFormFields';
import { ExportButton, ImportButton } from './SpreadsheetButtons';
import { boolChoices, isFormField, toBody, toFormValues, yuan, type AssetField } from './fieldModel';

/** What row actions and toolbar extras get from the page. */
export type GridContext = {
  t: Translate;
  reload: () => void;
  selected: AssetRow[];
  clearSelection: () => void;
  openEdit: (row: AssetRow) => void;
  dict: Record<string, DictOption[]>;
  filters: QueryParams;
};

/** One basic-data grid: its api kind, permission menu, fields and extras (see grids/*.tsx). */
export type GridConfig = {
  kind: AssetKind;
  /** Menu resource; buttons are `<menu>:query|add|edit|delete|export|import`. */
  menu: string;
  /** Key under `assets.title`. */
  title: string;
  fields: AssetField[];
  canAdd?: boolean;
  canDelete?: boolean;
  exportable?: boolean;
  importable?: boolean;
  /** Batch actions need rows ticked. */
  selectable?: boolean;
  /** Key under `assets` of the delete confirmation (e.g. a host's guns go too). */
  deleteConfirm?: string;
  rowActions?: (row: AssetRow, ctx: GridContext) => ReactNode[];
  toolbar?: (ctx: GridContext) => ReactNode[];
  /** Extra form content after the fields (e.g. a generate-password button). */
  formExtra?: (ctx: { editing: boolean; form: () => ProFormInstance | undefined }) => ReactNode;
  /** Adjusts the body before it is sent (e.g. fields the form computes). */
  beforeSave?: (body: Record<string, unknown>, row: AssetRow | undefined) => Record<string, unknown>;
  /** Filters every request carries. */
  fixedFilters?: QueryParams;
  /** Initial values of the search form (e.g. from the address: ?pileId=3). */
  initialSearch?: Record<string, unknown>;
  scrollX?: number;
  formWidth?: number;
  /** Replaces the built-in add/edit dialog (the station form). */
  customForm?: (props: {
    row: AssetRow | undefined;
    open: boolean;
    onClose: () => void;
    onSaved: () => void;
  }) => ReactNode;
};

function useGridDictionaries(fields: AssetField[]) {
  const codes = useMemo(
    () =>
      [
        ...new Map(
          fields.filter((f) => f.kind === 'dict' && f.dict).map((f) => [f.dict!, !!f.numeric]),
        ).entries(),
      ].map(([code, numeric]) => ({ code, numeric })),
    [fields],
  );
  return useDictionaries(codes);
}

/** Options of a reference filter in the search form. */
function RefFilterSelect({
  field,
  value,
  onChange,
}: {
  field: AssetField;
  value?: unknown;
  onChange?: (v: unknown) => void;
}) {
  const { t } = useTranslation();
  const { options, loading } = useRefOptions(
    field.ref,
    field.ref?.dependsOn ? {} : (field.ref?.params?.({}) ?? {}),
  );
  return (
    <SelectLike
      value={value}
      onChange={onChange}
      options={options}
      loading={loading}
      placeholder={t('assets.common.all')}
    />
  );
}

function SelectLike(props: {
  value?: unknown;
  onChange?: (v: unknown) => void;
  options: { value: string | number; label: string }[];
  loading?: boolean;
  placeholder: string;
}) {
  return (
    <Select
      allowClear
      showSearch
      optionFilterProp="label"
      value={props.value as string | number | undefined}
      onChange={(v) => props.onChange?.(v)}
      options={props.options}
      loading={props.loading}
      placeholder={props.placeholder}
    />
  );
}

function columnsOf(
  config: GridConfig,
  tx: Translate,
  label: (code: string, value: unknown) => string,
  dict: Record<string, DictOption[]>,
): ProColumns<AssetRow>[] {
  const columns: ProColumns<AssetRow>[] = [];
  for (const field of config.fields) {
    const title = fieldLabel(tx, field);
    if (field.grid !== false) {
      columns.push({
        key: `col-${field.name}`,
        title,
        dataIndex: field.view ?? field.name,
        hideInSearch: true,
        width: field.width,
        ellipsis: field.kind === 'textarea' || field.kind === 'text',
        render: (_dom, row) => {
          const value = row[field.view ?? field.name];
          if (value === null || value === undefined || value === '') return '-';
          switch (field.kind) {
            case 'dict':
              return label(field.dict ?? '', value);
            case 'choice': {
              const choice = field.choices?.find((c) => c.value === value);
              return choice ? tx(`assets.${choice.label}`) : String(value);
            }
            case 'bool': {
              const [on, off] = boolChoices(field);
              return value ? (
                <Tag color="green">{tx(`assets.${on.label}`)}</Tag>
              ) : (
                <Tag>{tx(`assets.${off.label}`)}</Tag>
              );
            }
            case 'money':
              return yuan(value);
            case 'datetime':
              return formatDateTime(String(value));
            default:
              return String(value);
          }
        },
      });
    }
    if (field.search) {
      const search: ProColumns<AssetRow> = {
        key: `search-${field.name}`,
        title,
        dataIndex: field.name,
        hideInTable: true,
      };
      if (field.kind === 'dict') {
        search.valueType = 'select';
        search.fieldProps = {
          options: dict[field.dict ?? ''] ?? [],
          showSearch: true,
          optionFilterProp: 'label',
        };
      } else if (field.kind === 'choice' || field.kind === 'bool') {
        search.valueType = 'select';
        search.fieldProps = {
          options: (field.kind === 'bool' ? boolChoices(field) : (field.choices ?? [])).map((c) => ({
            value: String(c.value),
            label: tx(`assets.${c.label}`),
          })),
        };
      } else if (field.kind === 'ref') {
        search.renderFormItem = () => <RefFilterSelect field={field} />;
      }
      columns.push(search);
    }
  }
  return columns;
}

/**
 * The page of one basic-data grid: a ProTable with filters, paging by 10 through the query cache, add and
 * edit in a ModalForm checked by the §5 rules, delete with confirmation, xlsx export and import, and the
 * grid's own actions. Every button is guarded by its permission code (the server checks again).
 */
export function AssetGridPage({ config }: { config: GridConfig }) {
  const { t } = useTranslation();
  const tx = t as unknown as Translate;
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const actionRef = useRef<ActionType>();
  const formRef = useRef<ProFormInstance>();
  const searchRef = useRef<ProFormInstance>();
  const buttons = gridButtons(config.menu);
  const canEdit = usePermission(buttons.edit);
  const canDelete = usePermission(buttons.delete);
  const { options: dict, label } = useGridDictionaries(config.fields);
  const request = useGridRequest<AssetRow>({
    filters: (params) => ({ ...filtersOf(params), ...config.fixedFilters }),
    queryKey: (page, size, filters) => assetsQueryKeys.page(config.kind, { page, size, ...filters }),
    fetch: (page, size, filters, signal) => assetApi.page(config.kind, page, size, filters, signal),
  });
  const [editing, setEditing] = useState<{ open: boolean; row: AssetRow | undefined }>({
    open: false,
    row: undefined,
  });
  const [selected, setSelected] = useState<AssetRow[]>([]);
  const [filters, setFilters] = useState<QueryParams>({});

  const reload = () => {
    void queryClient.invalidateQueries({ queryKey: assetsQueryKeys.grid(config.kind) });
    void actionRef.current?.reload();
  };
  const ctx: GridContext = {
    t: tx,
    reload,
    selected,
    clearSelection: () => {
      setSelected([]);
      actionRef.current?.clearSelected?.();
    },
    openEdit: (row) => setEditing({ open: true, row }),
    dict,
    filters: { ...filters, ...config.fixedFilters },
  };

  const remove = async (row: AssetRow) => {
    try {
      await assetApi.remove(config.kind, row.id);
      void message.success(t('assets.common.deleted'));
      reload();
    } catch {
      // shown by the request layer
    }
  };

  const columns = useMemo<ProColumns<AssetRow>[]>(() => {
    const base = columnsOf(config, tx, label, dict);
    const showEdit = canEdit;
    base.push({
      key: 'actions',
      title: t('assets.common.actions'),
      valueType: 'option',
      fixed: 'right',
      width: 200,
      render: (_dom, row) => (
        <Space size={4} wrap>
          {showEdit && (
            <Typography.Link data-testid={`edit-${row.id}`} onClick={() => setEditing({ open: true, row })}>
              <EditOutlined /> {t('assets.common.edit')}
            </Typography.Link>
          )}
          {canDelete && config.canDelete !== false && (
            <Popconfirm
              title={t(`assets.${config.deleteConfirm ?? 'common.confirmDelete'}` as never)}
              okText={t('common.ok')}
              cancelText={t('common.cancel')}
              onConfirm={() => remove(row)}
              onCancel={() => void message.info(t('assets.common.deletionCancelled'))}
            >
              <Typography.Link type="danger" data-testid={`delete-${row.id}`}>
                <DeleteOutlined /> {t('assets.common.delete')}
              </Typography.Link>
            </Popconfirm>
          )}
          {config.rowActions?.(row, ctx)}
        </Space>
      ),
    });
    return base;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [config, t, label, dict, canEdit, canDelete, selected, filters]);

  const save = async (values: Record<string, unknown>): Promise<boolean> => {
    const row = editing.row;
    let body = toBody(config.fields, values);
    if (config.beforeSave) body = config.beforeSave(body, row);
    try {
      if (row) await assetApi.update(config.kind, row.id, body);
      else await assetApi.create(config.kind, body);
    } catch (error) {
      showFieldErrors(formRef.current, error);
      return false;
    }
    void message.success(t(row ? 'assets.common.modified' : 'assets.common.added'));
    setEditing({ open: false, row: undefined });
    reload();
    return true;
  };

  const searchForm = useMemo(() => ({ initialValues: config.initialSearch }), [config.initialSearch]);
  const dependents = useMemo(
    () => config.fields.filter((f) => f.kind === 'ref' && f.ref?.dependsOn?.length),
    [config.fields],
  );

  return (
    <div data-testid={`grid-${config.kind}`}>
      <ProTable<AssetRow>
        rowKey="id"
        headerTitle={t(`assets.title.${config.title}` as never)}
        actionRef={actionRef}
        formRef={searchRef}
        columns={columns}
        request={async (params) => {
          // Kept for the export button (the same filters as the list); set only when they change.
          const next = filtersOf(params);
          setFilters((current) => (JSON.stringify(current) === JSON.stringify(next) ? current : next));
          return request(params);
        }}
        cardBordered
        options={{ density: false, setting: false, reload: true }}
        scroll={{ x: config.scrollX ?? 1200 }}
        rowSelection={
          config.selectable
            ? {
                selectedRowKeys: selected.map((r) => r.id),
                onChange: (_keys, rows) => setSelected(rows),
                preserveSelectedRowKeys: true,
              }
            : false
        }
        tableAlertRender={false}
        pagination={{
          pageSize: ASSET_PAGE_SIZE,
          showSizeChanger: false,
          showTotal: (total) => t('common.total', { total }),
        }}
        search={{ labelWidth: 'auto', defaultCollapsed: false, collapseRender: false }}
        form={searchForm}
        toolBarRender={() => [
          ...(config.canAdd !== false
            ? [
                <Permission key="add" code={buttons.add}>
                  <GuardedButton
                    type="primary"
                    icon={<PlusOutlined />}
                    data-testid={`add-${config.kind}`}
                    onClick={() => setEditing({ open: true, row: undefined })}
                  >
                    {t('assets.common.add')}
                  </GuardedButton>
                </Permission>,
              ]
            : []),
          ...(config.toolbar?.(ctx) ?? []),
          ...(config.exportable !== false
            ? [
                <Permission key="export" code={buttons.export}>
                  <ExportButton
                    kind={config.kind}
                    title={t(`assets.title.${config.title}` as never)}
                    filters={ctx.filters}
                  />
                </Permission>,
              ]
            : []),
          ...(config.importable
            ? [
                <Permission key="import" code={buttons.import}>
                  <ImportButton
                    kind={config.kind}
                    title={t(`assets.title.${config.title}` as never)}
                    onImported={reload}
                  />
                </Permission>,
              ]
            : []),
        ]}
      />
      {config.customForm ? (
        config.customForm({
          row: editing.row,
          open: editing.open,
          onClose: () => setEditing({ open: false, row: undefined }),
          onSaved: () => {
            setEditing({ open: false, row: undefined });
            reload();
          },
        })
      ) : (
        <ModalForm
          key={editing.row?.id ?? 'new'}
          formRef={formRef}
          title={t(editing.row ? 'assets.common.editTitle' : 'assets.common.addTitle', {
            name: t(`assets.noun.${config.title}` as never),
          })}
          open={editing.open}
          width={config.formWidth ?? 760}
          grid
          rowProps={{ gutter: 16 }}
          initialValues={toFormValues(config.fields, editing.row)}
          dateFormatter="string"
          modalProps={{
            destroyOnHidden: true,
            maskClosable: false,
            onCancel: () => setEditing({ open: false, row: undefined }),
          }}
          onValuesChange={(changed) => {
            // A reference that depends on a changed field no longer fits: clear it.
            for (const field of dependents) {
              if (field.ref!.dependsOn!.some((name) => name in changed)) {
                formRef.current?.setFieldValue(field.name, undefined);
              }
            }
          }}
          onFinish={save}
          submitter={{ searchConfig: { submitText: t('common.ok'), resetText: t('common.cancel') } }}
        >
          <AssetFormFields
            fields={config.fields.filter(isFormField)}
            context={{ dict, editing: editing.row !== undefined }}
          />
          {config.formExtra && (
            <Col span={24}>
              {config.formExtra({ editing: editing.row !== undefined, form: () => formRef.current })}
            </Col>
          )}
        </ModalForm>
      )}
    </div>
  );
}

/** A 400 or 409 naming fields: the messages go under the form's fields. */
export function showFieldErrors(form: ProFormInstance | undefined, error: unknown): void {
  if (!(error instanceof RequestError) || form === undefined) return;
  const details = error.body?.details;
  if (!Array.isArray(details)) return;
  const byField = new Map<string, string[]>();
  for (const d of details as { field?: unknown; message?: unknown }[]) {
    if (typeof d.field !== 'string' || typeof d.message !== 'string') continue;
    byField.set(d.field, [...(byField.get(d.field) ?? []), d.message]);
  }
  const known = new Set(Object.keys(form.getFieldsValue(true) as object));
  form.setFields(
    [...byField]
      .filter(([name]) => known.has(name) || form.getFieldInstance?.(name) !== undefined)
      .map(([name, errors]) => ({ name, errors })),
  );
}
