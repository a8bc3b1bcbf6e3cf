import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import {
  ModalForm,
  ProFormDateTimeRangePicker,
  ProFormDigit,
  ProFormSelect,
  ProFormSwitch,
  ProFormText,
} from '@ant-design/pro-components';
import { useQueryClient } from '@tanstack/react-query';
import type { ApiBody, DiscountPlanView } from '@voltdepot/console-api-client';
import type { CustomerTypeCode } from '@voltdepot/shared-contracts';
import { App, Button, Form, Input, Space, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { pickedInstantParam, pickerValueOf } from '../../../app/format/businessPicker';
import { WithTimeZoneHint } from '../../../app/format/TimeZoneHint';
import { billingApi } from '../api/billingApi';
import { useDictionary } from '../hooks/useDictionary';
import { billingQueryKeys } from '../queryKeys';

export type FormValues = {
  name: string;
  customerType: number;
  priceDiscount: number;
  serviceFeeDiscount: number;
  validPeriod: [Dayjs, Dayjs];
  enabled: boolean;
  details: { idTag: string }[];
};

/** What the form saves; the valid period is picked in business time, whatever the browser's zone. */
export function discountPlanBody(values: FormValues): ApiBody<'DiscountPlansController_create'> {
  return {
    name: values.name.trim(),
    customerType: Number(values.customerType) as CustomerTypeCode,
    priceDiscount: values.priceDiscount,
    serviceFeeDiscount: values.serviceFeeDiscount,
    validFrom: pickedInstantParam(values.validPeriod[0]) as string,
    validTo: pickedInstantParam(values.validPeriod[1]) as string,
    enabled: values.enabled !== false,
    details: values.details.map((d) => ({ idTag: d.idTag.trim() })),
  };
}

/** The form's values of a saved plan: its valid period as the picker shows it (business time). */
export function discountPlanFormValues(plan: DiscountPlanView) {
  return {
    ...plan,
    customerType: String(plan.customerType),
    validPeriod: [pickerValueOf(plan.validFrom), pickerValueOf(plan.validTo)],
  };
}

/**
 * Add or edit a discount plan (spec §5: name, valid period, detail rows and discount values required):
 * customer type, the percentage of the electricity fee and of the service fee to pay, the valid
 * period, enabled, and the cards it applies to.
 */
export function DiscountPlanFormModal({ plan, onClose }: { plan?: DiscountPlanView; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const clientTypes = useDictionary('client_type');
  const percentRules = (label: string) => [
    { required: true, message: t('billing.discountPlan.discountRequired', { field: label }) },
    { type: 'integer' as const, min: 0, max: 100, message: t('billing.discountPlan.percentRange') },
  ];

  const submit = async (values: FormValues) => {
    const body = discountPlanBody(values);
    try {
      await billingApi.saveDiscountPlan(plan?.id, body);
    } catch {
      return false; // the request layer showed the api's message
    }
    void message.success(t('billing.saved'));
    await queryClient.invalidateQueries({ queryKey: billingQueryKeys.list('discountPlans') });
    return true;
  };

  return (
    <ModalForm<FormValues>
      title={plan ? t('billing.discountPlan.edit') : t('billing.discountPlan.add')}
      open
      width={720}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
      modalProps={{ destroyOnHidden: true, maskClosable: false }}
      initialValues={
        plan
          ? discountPlanFormValues(plan)
          : {
              enabled: true,
              priceDiscount: 100,
              serviceFeeDiscount: 100,
              details: [{ idTag: '' }],
              customerType: '2',
            }
      }
      onFinish={submit}
    >
      <ProFormText
        name="name"
        label={t('billing.discountPlan.name')}
        fieldProps={{ maxLength: 64 }}
        rules={[{ required: true, whitespace: true, message: t('billing.discountPlan.nameRequired') }]}
      />
      <ProFormSelect
        name="customerType"
        label={t('billing.discountPlan.customerType')}
        options={clientTypes.options}
        rules={[{ required: true, message: t('billing.discountPlan.customerTypeRequired') }]}
      />
      <Space size="large">
        <ProFormDigit
          name="priceDiscount"
          label={t('billing.discountPlan.priceDiscount')}
          tooltip={t('billing.discountPlan.percentHint')}
          min={0}
          max={100}
          fieldProps={{ precision: 0, addonAfter: '%' }}
          rules={percentRules(t('billing.discountPlan.priceDiscount'))}
        />
        <ProFormDigit
          name="serviceFeeDiscount"
          label={t('billing.discountPlan.serviceFeeDiscount')}
          tooltip={t('billing.discountPlan.percentHint')}
          min={0}
          max={100}
          fieldProps={{ precision: 0, addonAfter: '%' }}
          rules={percentRules(t('billing.discountPlan.serviceFeeDiscount'))}
        />
      </Space>
      <ProFormDateTimeRangePicker
        name="validPeriod"
        label={<WithTimeZoneHint title={t('billing.discountPlan.validPeriod')} wording />}
        fieldProps={{ format: 'YYYY-MM-DD HH:mm:ss' }}
        rules={[
          { required: true, message: t('billing.discountPlan.validPeriodRequired') },
          {
            validator: (_: unknown, value: [Dayjs, Dayjs] | undefined) =>
              value && value[1] && value[0] && !dayjs(value[1]).isAfter(dayjs(value[0]))
                ? Promise.reject(new Error(t('billing.discountPlan.validToAfter')))
                : Promise.resolve(),
          },
        ]}
      />
      <ProFormSwitch name="enabled" label={t('billing.discountPlan.enabled')} />
      <Typography.Text strong>{t('billing.discountPlan.details')}</Typography.Text>
      <Form.List
        name="details"
        rules={[
          {
            validator: async (_, rows: { idTag?: string }[] | undefined) => {
              if (!rows || rows.length === 0) throw new Error(t('billing.discountPlan.detailsRequired'));
              const tags = rows.map((r) => r?.idTag?.trim()).filter(Boolean);
              if (new Set(tags).size !== tags.length) throw new Error(t('billing.discountPlan.cardTwice'));
            },
          },
        ]}
      >
        {(fields, { add, remove }, { errors }) => (
          <div style={{ marginTop: 8 }}>
            {fields.map((field) => (
              <Space key={field.key} align="start" style={{ display: 'flex' }}>
                <Form.Item
                  name={[field.name, 'idTag']}
                  rules={[
                    { required: true, whitespace: true, message: t('billing.discountPlan.cardRequired') },
                    { max: 20, message: t('billing.discountPlan.cardTooLong') },
                  ]}
                >
                  <Input style={{ width: 280 }} placeholder={t('billing.discountPlan.cardPlaceholder')} />
                </Form.Item>
                <Button
                  icon={<DeleteOutlined />}
                  aria-label={t('billing.delete')}
                  onClick={() => remove(field.name)}
                />
              </Space>
            ))}
            <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({ idTag: '' })}>
              {t('billing.discountPlan.addCard')}
            </Button>
            <Form.ErrorList errors={errors} />
          </div>
        )}
      </Form.List>
    </ModalForm>
  );
}
