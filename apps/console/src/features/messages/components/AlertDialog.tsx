import {
  ModalForm,
  ProFormDependency,
  ProFormDigit,
  ProFormSelect,
  ProFormText,
} from '@ant-design/pro-components';
import type {
  AlertGroup,
  ComparisonExpression,
  JobType,
  MsgAlertDto,
  MsgStatus,
} from '@voltdepot/shared-contracts';
import { useTranslation } from 'react-i18next';
import { msgApi, type AlertRequest } from '../api/msgApi';
import type { DictOption, MsgDictCode } from '../hooks/useDictionaries';
import { useSave } from '../hooks/useSave';
import {
  DEFAULT_DELIVERY,
  deliveryOf,
  deliveryValuesOf,
  RuleDeliveryFields,
  type RuleDeliveryValues,
} from './RuleDeliveryFields';

export type AlertFormValues = RuleDeliveryValues & {
  name?: string;
  alertGroup?: AlertGroup;
  jobType?: JobType;
  target?: string;
  expression?: ComparisonExpression;
  threshold?: number;
  status?: MsgStatus;
};

export type AlertDialogProps = {
  alert?: MsgAlertDto;
  options: Record<MsgDictCode, DictOption[]>;
  onClose: () => void;
  onSaved: () => void;
};

/** What the target of each job type is (shown as the placeholder). */
const TARGET_PLACEHOLDERS: Record<JobType, string> = {
  HTTP: 'http://127.0.0.1:3000/health',
  CONNECTION: '127.0.0.1:5432',
  NODE: '127.0.0.1:9100',
  REDIS: '127.0.0.1:6379',
  KAFKA: '127.0.0.1:9092',
  JAVA: '127.0.0.1:8080',
};

/**
 * An alert: a job of type KAFKA, REDIS, HTTP, CONNECTION or NODE measures its target, and a value that is
 * GE (>=) or LE (<=) the threshold sends the template to the group on the chosen channels.
 */
export function AlertDialog({ alert, options, onClose, onSaved }: AlertDialogProps) {
  const { t } = useTranslation();
  const save = useSave('alerts');

  const finish = async (values: AlertFormValues) => {
    const body: AlertRequest = {
      name: values.name?.trim() ?? '',
      alertGroup: values.alertGroup as AlertGroup,
      jobType: values.jobType as JobType,
      target: values.target?.trim() ?? '',
      expression: values.expression ?? 'GE',
      threshold: Number(values.threshold),
      status: values.status ?? 'DEFAULT',
      ...deliveryOf(values),
    };
    const saved = alert
      ? await save('edit', () => msgApi.alerts.update(alert.id, body))
      : await save('add', () => msgApi.alerts.create(body));
    if (saved) onSaved();
    return saved;
  };

  return (
    <ModalForm<AlertFormValues>
      open
      title={t(alert ? 'messages.alerts.editTitle' : 'messages.alerts.addTitle')}
      width="70%"
      layout="horizontal"
      labelCol={{ flex: '140px' }}
      // English labels are longer than the Chinese ones: they wrap instead of being cut off.
      labelWrap
      initialValues={
        alert
          ? {
              name: alert.name,
              alertGroup: alert.alertGroup,
              jobType: alert.jobType,
              target: alert.target,
              expression: alert.expression,
              threshold: alert.threshold,
              status: alert.status,
              ...deliveryValuesOf(alert),
            }
          : { expression: 'GE', status: 'DEFAULT', ...DEFAULT_DELIVERY }
      }
      modalProps={{ maskClosable: false, okText: t('common.ok'), cancelText: t('common.cancel') }}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      onFinish={finish}
    >
      <ProFormText
        name="name"
        label={t('messages.alerts.name')}
        fieldProps={{ maxLength: 100 }}
        rules={[{ required: true, whitespace: true, message: t('messages.alerts.nameRequired') }]}
      />
      <ProFormSelect
        name="alertGroup"
        label={t('messages.alerts.alertGroup')}
        options={options.alert_group}
        rules={[{ required: true, message: t('messages.alerts.alertGroupRequired') }]}
      />
      <ProFormSelect
        name="jobType"
        label={t('messages.alerts.jobType')}
        options={options.job_type}
        rules={[{ required: true, message: t('messages.alerts.jobTypeRequired') }]}
      />
      <ProFormDependency name={['jobType']}>
        {({ jobType }: AlertFormValues) => (
          <ProFormText
            name="target"
            label={t('messages.alerts.target')}
            tooltip={t('messages.alerts.targetHint')}
            placeholder={jobType ? TARGET_PLACEHOLDERS[jobType] : undefined}
            fieldProps={{ maxLength: 500 }}
            rules={[{ required: true, whitespace: true, message: t('messages.alerts.targetRequired') }]}
          />
        )}
      </ProFormDependency>
      <ProFormSelect
        name="expression"
        label={t('messages.alerts.expression')}
        options={options.comparison}
        rules={[{ required: true, message: t('messages.alerts.expressionRequired') }]}
      />
      <ProFormDigit
        name="threshold"
        label={t('messages.alerts.threshold')}
        fieldProps={{ precision: undefined }}
        min={Number.MIN_SAFE_INTEGER}
        rules={[{ required: true, message: t('messages.alerts.thresholdRequired') }]}
      />
      <ProFormSelect name="status" label={t('messages.common.status')} options={options.msg_status} />
      <RuleDeliveryFields options={options} />
    </ModalForm>
  );
}
