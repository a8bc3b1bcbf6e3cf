import { ModalForm, ProFormDigit, ProFormText } from '@ant-design/pro-components';
import { App } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { adminRules } from './formRules';

/** What every node of the administration trees has. */
export type TreeNodeFields = { code: string; name: string; sort: number };

/**
 * The add or edit dialog of a tree node (organisation, resource, dictionary entry): code, name and sort,
 * the tree's own fields around them. Code and name go trimmed; a refusal keeps the dialog open (the
 * request layer said why); a save says so, closes and lets the list read again.
 */
export function TreeNodeDialog<F extends TreeNodeFields>({
  title,
  open,
  editing,
  width = 520,
  initialValues,
  codeLabel,
  save,
  onClose,
  onSaved,
  before,
  children,
  after,
}: {
  title: string;
  open: boolean;
  /** An existing node (else a new one): which success message. */
  editing: boolean;
  width?: number;
  initialValues: Partial<F>;
  codeLabel?: string;
  save: (values: F) => Promise<unknown>;
  onClose: () => void;
  onSaved: () => void;
  /** Fields above code and name (a parent, a kind). */
  before?: ReactNode;
  /** Fields between name and sort. */
  children?: ReactNode;
  /** Fields below sort (switches). */
  after?: ReactNode;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const code = codeLabel ?? t('admin.common.code');
  return (
    <ModalForm<F>
      title={title}
      open={open}
      width={width}
      modalProps={{ destroyOnHidden: true, onCancel: onClose }}
      initialValues={initialValues}
      onFinish={async (values) => {
        try {
          await save({
            ...values,
            code: values.code.trim(),
            name: values.name.trim(),
            sort: values.sort ?? 0,
          });
        } catch {
          return false;
        }
        void message.success(editing ? t('admin.common.modified') : t('admin.common.added'));
        onClose();
        onSaved();
        return true;
      }}
    >
      {before}
      <ProFormText name="code" label={code} rules={adminRules.code(t, code)} />
      <ProFormText
        name="name"
        label={t('admin.common.name')}
        rules={adminRules.name(t, t('admin.common.name'))}
      />
      {children}
      <ProFormDigit
        name="sort"
        label={t('admin.common.sort')}
        min={0}
        max={1_000_000}
        fieldProps={{ precision: 0 }}
      />
      {after}
    </ModalForm>
  );
}
