import {
  ModalForm,
  ProFormDependency,
  ProFormRadio,
  ProFormSelect,
  ProFormText,
  ProFormTextArea,
} from '@ant-design/pro-components';
import type { GroupType, MsgGroupDto, ReceiverOption } from '@voltdepot/shared-contracts';
import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { msgApi, type GroupRequest } from '../api/msgApi';
import type { DictOption } from '../hooks/useDictionaries';
import { useSave } from '../hooks/useSave';

export type GroupFormValues = {
  name?: string;
  type?: GroupType;
  memberIds?: number[];
  description?: string;
};

export type GroupDialogProps = {
  group?: MsgGroupDto;
  typeOptions: DictOption[];
  roles: ReceiverOption[];
  users: ReceiverOption[];
  onClose: () => void;
  onSaved: () => void;
};

/** A receiver group: by role, by user, or nobody (NONE: rules that only post to robots). */
export function GroupDialog({ group, typeOptions, roles, users, onClose, onSaved }: GroupDialogProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<GroupFormValues>();
  const save = useSave('group');

  const finish = async (values: GroupFormValues) => {
    const type = values.type ?? 'ROLE';
    const body: GroupRequest = {
      name: values.name?.trim() ?? '',
      type,
      memberIds: type === 'NONE' ? [] : (values.memberIds ?? []),
      description: values.description?.trim() || null,
    };
    const saved = group
      ? await save('edit', () => msgApi.groups.update(group.id, body))
      : await save('add', () => msgApi.groups.create(body));
    if (saved) onSaved();
    return saved;
  };

  return (
    <ModalForm<GroupFormValues>
      open
      form={form}
      title={t(group ? 'messages.group.editTitle' : 'messages.group.addTitle')}
      width="70%"
      layout="horizontal"
      labelCol={{ flex: '140px' }}
      // English labels are longer than the Chinese ones: they wrap instead of being cut off.
      labelWrap
      initialValues={
        group
          ? {
              name: group.name,
              type: group.type,
              memberIds: group.memberIds,
              description: group.description ?? undefined,
            }
          : { type: 'ROLE', memberIds: [] }
      }
      modalProps={{ maskClosable: false, okText: t('common.ok'), cancelText: t('common.cancel') }}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      onFinish={finish}
      onValuesChange={(changed: GroupFormValues) => {
        // Role ids and user ids are different lists: a new type starts with no receivers.
        if (changed.type !== undefined) form.setFieldValue('memberIds', []);
      }}
    >
      <ProFormText
        name="name"
        label={t('messages.group.name')}
        fieldProps={{ maxLength: 100 }}
        rules={[{ required: true, whitespace: true, message: t('messages.group.nameRequired') }]}
      />
      <ProFormRadio.Group
        name="type"
        label={t('messages.group.type')}
        options={typeOptions}
        rules={[{ required: true, message: t('messages.group.typeRequired') }]}
      />
      <ProFormDependency name={['type']}>
        {({ type }: GroupFormValues) =>
          type === 'NONE' ? null : (
            <ProFormSelect
              name="memberIds"
              label={t(type === 'USER' ? 'messages.group.users' : 'messages.group.roles')}
              mode="multiple"
              options={(type === 'USER' ? users : roles).map((r) => ({ value: r.id, label: r.name }))}
              fieldProps={{ optionFilterProp: 'label', showSearch: true }}
              rules={[
                { required: true, type: 'array', min: 1, message: t('messages.group.membersRequired') },
              ]}
            />
          )
        }
      </ProFormDependency>
      <ProFormTextArea
        name="description"
        label={t('messages.group.description')}
        fieldProps={{ maxLength: 500, showCount: true }}
      />
    </ModalForm>
  );
}
