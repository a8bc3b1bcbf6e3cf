import {
  ModalForm,
  ProForm,
  ProFormDependency,
  ProFormSelect,
  ProFormText,
} from '@ant-design/pro-components';
import type { MsgEventRuleDto } from '@voltdepot/shared-contracts';
import { useTranslation } from 'react-i18next';
import { msgApi, type EventRuleRequest } from '../api/msgApi';
import type { DictOption, MsgDictCode } from '../hooks/useDictionaries';
import { useSave } from '../hooks/useSave';
import { KeyValueEditor } from './KeyValueEditor';
import { mapToPairs, pairsToMap, validatePairs, type KeyValuePair } from './keyValue';
import {
  DEFAULT_DELIVERY,
  deliveryOf,
  deliveryValuesOf,
  RuleDeliveryFields,
  type RuleDeliveryValues,
} from './RuleDeliveryFields';
import { CONDITION_FIELDS, RULE_EVENT_TYPES, type RuleEventType } from './ruleLabels';

export type EventRuleFormValues = RuleDeliveryValues & {
  name?: string;
  eventType?: RuleEventType;
  condition: KeyValuePair[];
};

export type EventRuleDialogProps = {
  rule?: MsgEventRuleDto;
  options: Record<MsgDictCode, DictOption[]>;
  onClose: () => void;
  onSaved: () => void;
};

/** An event rule: which bus event (and condition on its values) becomes which message, to whom, where. */
export function EventRuleDialog({ rule, options, onClose, onSaved }: EventRuleDialogProps) {
  const { t } = useTranslation();
  const save = useSave('event');

  const finish = async (values: EventRuleFormValues) => {
    const body: EventRuleRequest = {
      name: values.name?.trim() ?? '',
      eventType: values.eventType as RuleEventType,
      condition: pairsToMap(values.condition),
      ...deliveryOf(values),
    };
    const saved = rule
      ? await save('edit', () => msgApi.events.update(rule.id, body))
      : await save('add', () => msgApi.events.create(body));
    if (saved) onSaved();
    return saved;
  };

  return (
    <ModalForm<EventRuleFormValues>
      open
      title={t(rule ? 'messages.event.editTitle' : 'messages.event.addTitle')}
      width="70%"
      layout="horizontal"
      labelCol={{ flex: '140px' }}
      // English labels are longer than the Chinese ones: they wrap instead of being cut off.
      labelWrap
      initialValues={
        rule
          ? {
              name: rule.name,
              eventType: rule.eventType as RuleEventType,
              condition: mapToPairs(rule.condition),
              ...deliveryValuesOf(rule),
            }
          : { eventType: 'transaction.stopped', condition: [], ...DEFAULT_DELIVERY }
      }
      modalProps={{ maskClosable: false, okText: t('common.ok'), cancelText: t('common.cancel') }}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      onFinish={finish}
    >
      <ProFormText
        name="name"
        label={t('messages.event.name')}
        fieldProps={{ maxLength: 100 }}
        rules={[{ required: true, whitespace: true, message: t('messages.event.nameRequired') }]}
      />
      <ProFormSelect
        name="eventType"
        label={t('messages.event.eventType')}
        options={Object.entries(RULE_EVENT_TYPES).map(([value, key]) => ({ value, label: t(key) }))}
        rules={[{ required: true, message: t('messages.event.eventTypeRequired') }]}
      />
      <ProFormDependency name={['eventType']}>
        {({ eventType }: Partial<EventRuleFormValues>) => (
          <ProForm.Item
            name="condition"
            label={t('messages.event.condition')}
            extra={
              eventType
                ? t('messages.event.conditionHint', { fields: CONDITION_FIELDS[eventType] })
                : undefined
            }
            rules={[
              {
                validator: async (_rule: unknown, value: KeyValuePair[] | undefined) => {
                  const problem = validatePairs(value);
                  if (problem) throw new Error(t(`messages.keyValue.${problem}`));
                },
              },
            ]}
          >
            <KeyValueEditor data-testid="condition-editor" />
          </ProForm.Item>
        )}
      </ProFormDependency>
      <RuleDeliveryFields options={options} />
    </ModalForm>
  );
}
