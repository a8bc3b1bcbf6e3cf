import { DeleteOutlined, EditOutlined, UploadOutlined } from '@ant-design/icons';
import { ModalForm, type ProColumns, type ProFormInstance } from '@ant-design/pro-components';
import { App, Col, Select, Tag } from 'antd';
import { useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { gridDateTime, timeColumnTitle } from '../../../app/grid/columns';
import { GridPage, type GridButtonContext } from '../../../app/grid/GridPage';
import { usePagedGrid } from '../../../app/grid/useGrid';
import { useLocale } from '../../../app/providers/useLocale';
import { RequestError, type QueryParams } from '../../../request';
import { assetApi, ASSET_PAGE_SIZE } from '../api/assetApi';
import { useDictionaries, type DictOption } from '../hooks/useDictionaries';
import { useRefOptions } from '../hooks/useRefOptions';
import { gridButtons } from '../permissions';
import { assetsQueryKeys } from '../queryKeys';
import type { Translate } from '../rules/formRules';
import type { AssetKind, AssetRow } from '../types';
import { AssetFormFields, fieldLabel } from './AssetFormFields';
import { boolChoices, isFormField, toBody, toFormValues, yuan, type AssetField } from './fieldModel';
import { ImportDialog } from './ImportDialog';

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
        title: field.kind === 'datetime' ? timeColumnTitle(title) : title,
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
              return gridDateTime(String(value));
            default:
              return field.identifier ? <span data-raw-text>{String(value)}</span> : String(value);
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
 * The page of one basic-data grid on the console's grid shell: the fields' columns and filters, pages of 10,
 * add and edit in a ModalForm checked by the §5 rules, delete with confirmation, xlsx export and import, and
 * the grid's own actions. Every button is guarded by its permission code (the server checks again).
 */
export function AssetGridPage({ config }: { config: GridConfig }) {
  const { t } = useTranslation();
  const tx = t as unknown as Translate;
  const { message } = App.useApp();
  const { locale } = useLocale();
  const formRef = useRef<ProFormInstance>();
  const buttons = gridButtons(config.menu);
  const { options: dict, label } = useGridDictionaries(config.fields);
  const grid = usePagedGrid<AssetRow>({
    listKey: assetsQueryKeys.grid(config.kind),
    pageKey: (page, size, filters) => assetsQueryKeys.page(config.kind, { page, size, ...filters }),
    fetch: (page, size, filters, signal) => assetApi.page(config.kind, page, size, filters, signal),
    fixedFilters: config.fixedFilters,
    pageSize: ASSET_PAGE_SIZE,
  });
  const [editing, setEditing] = useState<{ open: boolean; row: AssetRow | undefined }>({
    open: false,
    row: undefined,
  });
  const [importing, setImporting] = useState(false);
  const [selected, setSelected] = useState<AssetRow[]>([]);
  const title = t(`assets.title.${config.title}` as never);

  const reload = () => void grid.reload();
  const ctx: GridContext = {
    t: tx,
    reload,
    selected,
    clearSelection: () => setSelected([]),
    openEdit: (row) => setEditing({ open: true, row }),
    dict,
    filters: grid.filters,
  };

  const columns = useMemo(() => columnsOf(config, tx, label, dict), [config, tx, label, dict]);

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

  const dependents = useMemo(
    () => config.fields.filter((f) => f.kind === 'ref' && f.ref?.dependsOn?.length),
    [config.fields],
  );

  return (
    <>
      <GridPage<AssetRow>
        grid={grid}
        title={title}
        testId={`grid-${config.kind}`}
        texts="assets.common"
        columns={columns}
        search={{ initialValues: config.initialSearch }}
        scrollX={config.scrollX ?? 1200}
        toolbarExtra={config.toolbar?.(ctx)}
        toolbar={[
          ...(config.canAdd !== false
            ? [
                {
                  key: 'add',
                  permission: buttons.add,
                  testId: `add-${config.kind}`,
                  onClick: () => setEditing({ open: true, row: undefined }),
                },
              ]
            : []),
          ...(config.exportable !== false
            ? [
                {
                  key: 'export',
                  permission: buttons.export,
                  testId: `export-${config.kind}`,
                  // Spec §7: saved with a default name meaning "export file".
                  onClick: ({ filters }: GridButtonContext) =>
                    assetApi.exportExcel(
                      config.kind,
                      filters,
                      locale,
                      `${title}${t('assets.common.exportFile')}.xlsx`,
                    ),
                },
              ]
            : []),
          ...(config.importable
            ? [
                {
                  key: 'import',
                  icon: <UploadOutlined />,
                  permission: buttons.import,
                  testId: `import-${config.kind}`,
                  onClick: () => setImporting(true),
                },
              ]
            : []),
        ]}
        rowActions={[
          {
            key: 'edit',
            icon: <EditOutlined />,
            permission: buttons.edit,
            testId: (row) => `edit-${row.id}`,
            onClick: (row) => setEditing({ open: true, row }),
          },
          ...(config.canDelete !== false
            ? [
                {
                  key: 'delete',
                  icon: <DeleteOutlined />,
                  permission: buttons.delete,
                  testId: (row: AssetRow) => `delete-${row.id}`,
                  confirm: () => t(`assets.${config.deleteConfirm ?? 'common.confirmDelete'}` as never),
                  cancelled: t('assets.common.deletionCancelled'),
                  onClick: (row: AssetRow) => assetApi.remove(config.kind, row.id),
                },
              ]
            : []),
        ]}
        rowActionsExtra={config.rowActions ? (row) => config.rowActions!(row, ctx) : undefined}
        actionsWidth={200}
        table={{
          rowSelection: config.selectable
            ? {
                selectedRowKeys: selected.map((r) => r.id),
                onChange: (_keys, rows) => setSelected(rows),
                preserveSelectedRowKeys: true,
              }
            : false,
          tableAlertRender: false,
        }}
      />
      {config.importable && (
        <ImportDialog
          kind={config.kind}
          title={title}
          open={importing}
          onClose={() => setImporting(false)}
          onImported={reload}
        />
      )}
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
    </>
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
