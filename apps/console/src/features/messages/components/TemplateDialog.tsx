import {
  ModalForm,
  ProDescriptions,
  ProForm,
  ProFormSelect,
  ProFormSwitch,
  ProFormText,
} from '@ant-design/pro-components';
import type { MsgConfigDto, MsgTemplateDto, TemplateType } from '@voltdepot/shared-contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { msgApi } from '../api/msgApi';
import type { DictOption } from '../hooks/useDictionaries';
import { useSave } from '../hooks/useSave';
import { KeyValueEditor } from './KeyValueEditor';
import { mapToPairs, pairsToMap, validatePairs, type KeyValuePair } from './keyValue';
import { RichTextEditor } from './RichTextEditor';
import { timeColumnTitle } from '../../../app/grid/columns';

/** Spec §4: the template dialog's modes. */
export type TemplateDialogMode = 'add' | 'edit' | 'details';

export type TemplateFormValues = {
  configId?: number;
  templateName?: string;
  type?: TemplateType;
  msgKey?: string;
  content?: string;
  parameters: KeyValuePair[];
  editable: boolean;
};

export type TemplateDialogProps = {
  mode: TemplateDialogMode;
  template?: MsgTemplateDto;
  configs: MsgConfigDto[];
  typeOptions: DictOption[];
  onClose: () => void;
  onSaved: () => void;
};

const TITLES = {
  add: 'messages.template.addTitle',
  edit: 'messages.template.editTitle',
  details: 'messages.template.detailsTitle',
} as const;

export function templateFormValues(
  template: MsgTemplateDto | undefined,
  configs: MsgConfigDto[],
): TemplateFormValues {
  if (!template) return { type: '0', parameters: [], editable: true, content: '' };
  return {
    // A stored config that is not in the list cannot be shown: the user picks one again.
    configId: configs.some((config) => config.id === template.configId) ? template.configId : undefined,
    templateName: template.templateName,
    type: template.type,
    msgKey: template.msgKey ?? undefined,
    content: template.content ?? '',
    parameters: mapToPairs(template.parameters),
    editable: template.editable,
  };
}

/**
 * The message template dialog (spec §2, §5, §8): add, edit or details (every field disabled), 70 % wide,
 * rich-text content 40vh high, the key-value parameters validated before save; on edit the id is sent.
 */
export function TemplateDialog({
  mode,
  template,
  configs,
  typeOptions,
  onClose,
  onSaved,
}: TemplateDialogProps) {
  const { t } = useTranslation();
  const save = useSave('template');
  const readOnly = mode === 'details';
  const [initialValues] = useState(() => {
    const values = templateFormValues(template, configs);
    // Spec §8: editing a template without a (known) configuration is a console error.
    if (mode === 'edit' && values.configId === undefined)
      console.error(t('messages.template.configMismatch'));
    return values;
  });

  const finish = async (values: TemplateFormValues) => {
    const body = {
      configId: values.configId as number,
      templateName: values.templateName?.trim() ?? '',
      type: values.type ?? '0',
      content: values.content ?? '',
      msgKey: values.msgKey?.trim() || undefined,
      parameters: pairsToMap(values.parameters),
      editable: values.editable,
    };
    const saved =
      mode === 'add'
        ? await save('add', () => msgApi.templates.create(body))
        : await save('edit', () => msgApi.templates.update(template!.id, { ...body, id: template!.id }));
    if (saved) onSaved();
    return saved;
  };

  return (
    <ModalForm<TemplateFormValues>
      open
      title={t(TITLES[mode])}
      width="70%"
      layout="horizontal"
      labelCol={{ flex: '140px' }}
      // English labels are longer than the Chinese ones: they wrap instead of being cut off.
      labelWrap
      initialValues={initialValues}
      disabled={readOnly}
      submitter={readOnly ? false : undefined}
      modalProps={{ maskClosable: false, okText: t('common.ok'), cancelText: t('common.cancel') }}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      onFinish={finish}
    >
      {readOnly && template && (
        <ProDescriptions
          column={3}
          size="small"
          style={{ marginBottom: 16 }}
          dataSource={template}
          columns={[
            { title: t('messages.common.lastOperator'), dataIndex: 'username' },
            { title: timeColumnTitle(t('messages.common.createTime')), dataIndex: 'createTime' },
            { title: timeColumnTitle(t('messages.common.updateTime')), dataIndex: 'updateTime' },
          ]}
        />
      )}
      <ProFormSelect
        name="configId"
        label={t('messages.template.configId')}
        placeholder={t('messages.template.configIdRequired')}
        options={configs.map((config) => ({
          value: config.id,
          label: `${config.configName} (${config.fullName})`,
        }))}
        fieldProps={{ showSearch: true, optionFilterProp: 'label' }}
        rules={[{ required: true, message: t('messages.template.configIdRequired') }]}
      />
      <ProFormText
        name="templateName"
        label={t('messages.template.templateName')}
        placeholder={t('messages.template.templateNameRequired')}
        fieldProps={{ maxLength: 200 }}
        rules={[{ required: true, whitespace: true, message: t('messages.template.templateNameRequired') }]}
      />
      <ProFormSelect
        name="type"
        label={t('messages.template.type')}
        placeholder={t('messages.template.typeRequired')}
        options={typeOptions}
        fieldProps={{ allowClear: true }}
        rules={[{ required: true, message: t('messages.template.typeRequired') }]}
      />
      <ProFormText
        name="msgKey"
        label={t('messages.template.msgKey')}
        tooltip={t('messages.template.msgKeyHint')}
        fieldProps={{ maxLength: 200 }}
      />
      <ProForm.Item name="content" label={t('messages.template.content')}>
        <RichTextEditor disabled={readOnly} />
      </ProForm.Item>
      <ProForm.Item
        name="parameters"
        label={t('messages.template.parameters')}
        tooltip={t('messages.template.parametersHint')}
        rules={[
          {
            validator: async (_rule: unknown, value: KeyValuePair[] | undefined) => {
              const problem = validatePairs(value);
              if (problem) throw new Error(t(`messages.keyValue.${problem}`));
            },
          },
        ]}
      >
        <KeyValueEditor disabled={readOnly} />
      </ProForm.Item>
      <ProFormSwitch name="editable" label={t('messages.template.editable')} />
    </ModalForm>
  );
}
