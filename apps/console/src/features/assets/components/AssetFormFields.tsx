import {
  ProFormDatePicker,
  ProFormDateTimePicker,
  ProFormDependency,
  ProFormDigit,
  ProFormSelect,
  ProFormSwitch,
  ProFormText,
  ProFormTextArea,
  ProFormTimePicker,
} from '@ant-design/pro-components';
import type { FormRule } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRefOptions } from '../hooks/useRefOptions';
import { messageOf, type Translate } from '../rules/formRules';
import { fieldProblem, isFormField, type AssetField } from './fieldModel';
import type { DictOption } from '../hooks/useDictionaries';
import { WithTimeZoneHint } from '../../../app/format/TimeZoneHint';

export type FieldContext = {
  dict: Record<string, DictOption[]>;
  /** Editing an existing row (passwords become optional). */
  editing: boolean;
};

/** The translated label of a field (`assets.field.<label>`). */
export function fieldLabel(t: Translate, field: AssetField): string {
  return t(`assets.field.${field.label}`);
}

const TEXT_KINDS = new Set(['text', 'textarea', 'password', 'endTime']);

/** antd rules of a field: the asterisk and "cannot be empty", then the field's own rules, in §5 words. */
export function fieldRules(t: Translate, field: AssetField, editing: boolean): FormRule[] {
  const label = fieldLabel(t, field);
  const required = field.required === true && !(editing && field.kind === 'password');
  return [
    ...(required
      ? [
          // Only {required, message}: with `whitespace` antd would also check the value is text, and a
          // number or a select's value would fail as "cannot be empty".
          (TEXT_KINDS.has(field.kind)
            ? { required: true, whitespace: true, message: messageOf(t, { key: 'required' }, label) }
            : { required: true, message: messageOf(t, { key: 'required' }, label) }) as FormRule,
        ]
      : []),
    {
      validator: async (_rule, value: unknown) => {
        const problem = fieldProblem({ ...field, required: false }, value);
        if (problem) throw new Error(messageOf(t, problem, label));
      },
    },
  ];
}

function RefSelect({
  field,
  params,
  context,
}: {
  field: AssetField;
  params: Record<string, unknown> | null;
  context: FieldContext;
}) {
  const { t } = useTranslation();
  const tx = t as unknown as Translate;
  const { options, loading } = useRefOptions(field.ref, params as never);
  return (
    <ProFormSelect
      name={field.name}
      label={fieldLabel(tx, field)}
      rules={fieldRules(tx, field, context.editing)}
      options={options}
      showSearch
      fieldProps={{ loading, optionFilterProp: 'label', allowClear: !field.required }}
      colProps={{ span: field.wide ? 24 : 12 }}
      placeholder={t('assets.common.select')}
    />
  );
}

/** One form control for `field`. */
export function AssetFormField({ field, context }: { field: AssetField; context: FieldContext }) {
  const { t } = useTranslation();
  const tx = t as unknown as Translate;
  const label = fieldLabel(tx, field);
  const rules = fieldRules(tx, field, context.editing);
  const colProps = { span: field.wide || field.kind === 'textarea' ? 24 : 12 };
  const common = { name: field.name, label, rules, colProps };
  switch (field.kind) {
    case 'text':
      return <ProFormText {...common} fieldProps={{ maxLength: field.text?.max }} />;
    case 'endTime':
      return <ProFormText {...common} placeholder="HH:mm" fieldProps={{ maxLength: 5 }} />;
    case 'password':
      return (
        <ProFormText.Password
          {...common}
          placeholder={context.editing ? t('assets.common.passwordKeep') : undefined}
          fieldProps={{ maxLength: field.text?.max, autoComplete: 'new-password' }}
        />
      );
    case 'textarea':
      return <ProFormTextArea {...common} fieldProps={{ maxLength: field.text?.max, showCount: true }} />;
    case 'int':
    case 'decimal':
    case 'money':
      return (
        <ProFormDigit
          {...common}
          min={field.min}
          max={field.max}
          fieldProps={{
            precision: field.kind === 'int' ? 0 : (field.decimals ?? 2),
            style: { width: '100%' },
          }}
        />
      );
    case 'bool':
      return <ProFormSwitch {...common} />;
    case 'dict':
      return (
        <ProFormSelect
          {...common}
          options={context.dict[field.dict ?? ''] ?? []}
          showSearch
          fieldProps={{ optionFilterProp: 'label', allowClear: !field.required }}
          placeholder={t('assets.common.select')}
        />
      );
    case 'choice':
      return (
        <ProFormSelect
          {...common}
          options={(field.choices ?? []).map((c) => ({
            value: String(c.value),
            label: tx(`assets.${c.label}`),
          }))}
          placeholder={t('assets.common.select')}
        />
      );
    case 'time':
      return <ProFormTimePicker {...common} fieldProps={{ format: 'HH:mm', style: { width: '100%' } }} />;
    case 'date':
      return <ProFormDatePicker {...common} fieldProps={{ style: { width: '100%' } }} />;
    case 'datetime':
      // Picked in business time (fieldModel reads it back so), and labelled with its zone.
      return (
        <ProFormDateTimePicker
          {...common}
          label={<WithTimeZoneHint title={label} wording />}
          fieldProps={{ style: { width: '100%' } }}
        />
      );
    case 'ref': {
      const spec = field.ref!;
      if (!spec.dependsOn?.length) {
        return <RefSelect field={field} params={spec.params ? spec.params({}) : {}} context={context} />;
      }
      return (
        <ProFormDependency name={spec.dependsOn}>
          {(values) => (
            <RefSelect field={field} params={spec.params ? spec.params(values) : {}} context={context} />
          )}
        </ProFormDependency>
      );
    }
    default:
      return null;
  }
}

/** The controls of every form field, in order. */
export function AssetFormFields({ fields, context }: { fields: AssetField[]; context: FieldContext }) {
  return (
    <>
      {fields.filter(isFormField).map((field) => (
        <AssetFormField key={field.name} field={field} context={context} />
      ))}
    </>
  );
}
