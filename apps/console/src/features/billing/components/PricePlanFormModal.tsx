import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { ModalForm, ProFormDateTimePicker, ProFormSwitch, ProFormText } from '@ant-design/pro-components';
import { useQueryClient } from '@tanstack/react-query';
import type { ApiBody, PricePlanView } from '@voltdepot/console-api-client';
import type { StageTypeCode } from '@voltdepot/shared-contracts';
import { Alert, App, Button, Form, Input, Select, Space, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { pickerNow } from '../../../app/format/businessPicker';
import { WithTimeZoneHint } from '../../../app/format/TimeZoneHint';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RequestError } from '../../../request';
import { billingApi } from '../api/billingApi';
import { useDictionary } from '../hooks/useDictionary';
import { billingQueryKeys } from '../queryKeys';
import {
  coverageProblems,
  formatPrice,
  parseServerProblem,
  parseTime,
  priceProblem,
  type CoverageProblem,
  type StageDraft,
} from '../utils/pricePlanRules';
import { StageBandChart } from './StageBandChart';
import { effectiveFromParam, isPastInstant } from '../utils/effectiveFrom';

type FormValues = {
  name: string;
  isDefault: boolean;
  stages: StageDraft[];
  /** Editing: from when the new stages apply (empty: now). */
  effectiveFrom?: Dayjs | string | null;
};

const NEW_STAGE: StageDraft = { stageType: 'normal', startTime: '00:00', endTime: '24:00' };

/** The sentence for one gap, overlap or empty stage, in the user's language. */
export function useProblemText() {
  const { t } = useTranslation();
  return (p: CoverageProblem): string =>
    p.kind === 'gap'
      ? t('billing.pricePlan.gap', { from: p.from, to: p.to })
      : p.kind === 'overlap'
        ? t('billing.pricePlan.overlap', { from: p.from, to: p.to, count: p.count })
        : t('billing.pricePlan.sameTime', { row: p.row });
}

/**
 * Add or edit a price plan: name, default flag and the detail rows (stage type, time range, electricity
 * price and service fee per kWh, up to 4 decimals). Gaps and overlaps of the day show as the user types;
 * the api checks again and its answer is shown the same way.
 */
export function PricePlanFormModal({
  plan,
  open,
  onClose,
}: {
  plan?: PricePlanView;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<FormValues>();
  const stageTypes = useDictionary('charging_period_type');
  const problemText = useProblemText();
  const [serverProblems, setServerProblems] = useState<string[]>([]);
  const watched = Form.useWatch('stages', form) as StageDraft[] | undefined;
  const stages = useMemo(() => watched ?? [], [watched]);
  const problems = useMemo(() => coverageProblems(stages), [stages]);

  const timeRule = (end: boolean) => ({
    validator: (_: unknown, value: string | undefined) => {
      if (!value) return Promise.reject(new Error(t('billing.pricePlan.timeRequired')));
      const minute = parseTime(value);
      if (minute === undefined || (!end && minute === 1440))
        return Promise.reject(
          new Error(t(end ? 'billing.pricePlan.endFormat' : 'billing.pricePlan.startFormat')),
        );
      return Promise.resolve();
    },
  });
  const priceRule = {
    validator: (_: unknown, value: string | undefined) => {
      const problem = priceProblem(value);
      return problem ? Promise.reject(new Error(t(`billing.pricePlan.price_${problem}`))) : Promise.resolve();
    },
  };

  const submit = async (values: FormValues) => {
    setServerProblems([]);
    if (problems.length) {
      void message.error(t('billing.pricePlan.fixCoverage'));
      return false;
    }
    const body: ApiBody<'PricePlansController_create'> = {
      name: values.name.trim(),
      isDefault: Boolean(values.isDefault),
      stages: (values.stages ?? []).map((s) => ({
        stageType: s.stageType as StageTypeCode,
        startTime: s.startTime as string,
        endTime: s.endTime as string,
        electricityPrice: formatPrice(s.electricityPrice as string),
        serviceFee: formatPrice(s.serviceFee as string),
      })),
      effectiveFrom: plan ? effectiveFromParam(values.effectiveFrom) : undefined,
    };
    try {
      await billingApi.savePricePlan(plan?.id, body);
    } catch (error) {
      const details =
        error instanceof RequestError
          ? (error.body?.details as { problems?: string[] } | undefined)
          : undefined;
      if (details?.problems) setServerProblems(details.problems);
      return false;
    }
    void message.success(t('billing.saved'));
    await queryClient.invalidateQueries({ queryKey: billingQueryKeys.list('pricePlans') });
    return true;
  };

  const stageLabel = (type: StageTypeCode) => stageTypes.label(type);

  return (
    <ModalForm<FormValues>
      title={plan ? t('billing.pricePlan.edit') : t('billing.pricePlan.add')}
      open={open}
      form={form}
      width={960}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
      modalProps={{ destroyOnHidden: true, maskClosable: false }}
      initialValues={
        plan
          ? { name: plan.name, isDefault: plan.isDefault, stages: plan.stages }
          : { name: '', isDefault: false, stages: [NEW_STAGE] }
      }
      onFinish={submit}
    >
      <Space align="start" size="large" wrap>
        <ProFormText
          name="name"
          label={t('billing.pricePlan.name')}
          width="md"
          fieldProps={{ maxLength: 64, 'data-testid': 'price-plan-name' } as never}
          rules={[{ required: true, whitespace: true, message: t('billing.pricePlan.nameRequired') }]}
        />
        <ProFormSwitch name="isDefault" label={t('billing.pricePlan.isDefault')} />
        {plan && (
          <ProFormDateTimePicker
            name="effectiveFrom"
            label={<WithTimeZoneHint title={t('billing.pricePlan.effectiveFrom')} wording />}
            tooltip={t('billing.pricePlan.effectiveFromHint')}
            width="md"
            fieldProps={
              {
                format: 'YYYY-MM-DD HH:mm:ss',
                placeholder: t('billing.pricePlan.effectiveNow'),
                disabledDate: (day: Dayjs) => day.isBefore(pickerNow(), 'day'),
                'data-testid': 'price-plan-effective-from',
              } as never
            }
            rules={[
              {
                validator: (_: unknown, value: Dayjs | string | null | undefined) =>
                  isPastInstant(value)
                    ? Promise.reject(new Error(t('billing.pricePlan.effectiveFromPast')))
                    : Promise.resolve(),
              },
            ]}
          />
        )}
      </Space>
      <div style={{ marginTop: 8 }}>
        <Typography.Text strong>{t('billing.pricePlan.stages')}</Typography.Text>
      </div>
      <Form.List name="stages">
        {(fields, { add, remove }) => (
          <div data-testid="price-plan-stages" style={{ marginTop: 8 }}>
            <Space style={{ display: 'flex', fontWeight: 500, marginBottom: 4 }}>
              <div style={{ width: 120 }}>{t('billing.pricePlan.stageType')}</div>
              <div style={{ width: 90 }}>{t('billing.pricePlan.startTime')}</div>
              <div style={{ width: 90 }}>{t('billing.pricePlan.endTime')}</div>
              <div style={{ width: 170 }}>{t('billing.pricePlan.electricityPriceUnit')}</div>
              <div style={{ width: 170 }}>{t('billing.pricePlan.serviceFeeUnit')}</div>
            </Space>
            {fields.map((field, index) => (
              <Space
                key={field.key}
                align="start"
                style={{ display: 'flex' }}
                data-testid={`stage-row-${index}`}
              >
                <Form.Item
                  style={{ marginBottom: 12 }}
                  name={[field.name, 'stageType']}
                  rules={[{ required: true, message: t('billing.pricePlan.stageTypeRequired') }]}
                >
                  <Select
                    style={{ width: 120 }}
                    options={stageTypes.options}
                    aria-label={t('billing.pricePlan.stageType')}
                  />
                </Form.Item>
                <Form.Item
                  style={{ marginBottom: 12 }}
                  name={[field.name, 'startTime']}
                  rules={[timeRule(false)]}
                >
                  <Input
                    style={{ width: 90 }}
                    placeholder="HH:mm"
                    maxLength={5}
                    aria-label={t('billing.pricePlan.startTime')}
                  />
                </Form.Item>
                <Form.Item
                  style={{ marginBottom: 12 }}
                  name={[field.name, 'endTime']}
                  rules={[timeRule(true)]}
                >
                  <Input
                    style={{ width: 90 }}
                    placeholder="HH:mm"
                    maxLength={5}
                    aria-label={t('billing.pricePlan.endTime')}
                  />
                </Form.Item>
                <Form.Item
                  style={{ marginBottom: 12 }}
                  name={[field.name, 'electricityPrice']}
                  rules={[priceRule]}
                >
                  <Input
                    style={{ width: 170 }}
                    placeholder="0.8523"
                    inputMode="decimal"
                    aria-label={t('billing.pricePlan.electricityPrice')}
                  />
                </Form.Item>
                <Form.Item style={{ marginBottom: 12 }} name={[field.name, 'serviceFee']} rules={[priceRule]}>
                  <Input
                    style={{ width: 170 }}
                    placeholder="0.8000"
                    inputMode="decimal"
                    aria-label={t('billing.pricePlan.serviceFee')}
                  />
                </Form.Item>
                <Button
                  icon={<DeleteOutlined />}
                  aria-label={t('billing.pricePlan.removeStage')}
                  disabled={fields.length <= 1}
                  onClick={() => remove(field.name)}
                />
              </Space>
            ))}
            <Button
              type="dashed"
              icon={<PlusOutlined />}
              onClick={() => {
                const last = stages[stages.length - 1];
                add({
                  stageType: 'normal',
                  startTime: last?.endTime === '24:00' ? '' : (last?.endTime ?? ''),
                  endTime: '',
                });
              }}
              disabled={fields.length >= 48}
            >
              {t('billing.pricePlan.addStage')}
            </Button>
          </div>
        )}
      </Form.List>
      <div data-testid="coverage-feedback" style={{ marginTop: 16 }}>
        {problems.length > 0 ? (
          <Alert
            type="warning"
            showIcon
            message={t('billing.pricePlan.coverageProblems')}
            description={
              <ul style={{ margin: 0, paddingLeft: 20 }}>
                {problems.map((p) => (
                  <li key={`${p.kind}-${'from' in p ? p.from : p.row}`}>{problemText(p)}</li>
                ))}
              </ul>
            }
          />
        ) : (
          <Alert type="success" showIcon message={t('billing.pricePlan.coversDay')} />
        )}
      </div>
      {serverProblems.length > 0 && (
        <Alert
          data-testid="server-problems"
          style={{ marginTop: 8 }}
          type="error"
          showIcon
          message={t('billing.pricePlan.serverRefused')}
          description={
            <ul style={{ margin: 0, paddingLeft: 20 }}>
              {serverProblems.map((text) => {
                const parsed = parseServerProblem(text);
                return <li key={text}>{parsed ? problemText(parsed) : text}</li>;
              })}
            </ul>
          }
        />
      )}
      <div style={{ marginTop: 16 }}>
        <Typography.Text strong>{t('billing.pricePlan.dayChart')}</Typography.Text>
        <StageBandChart stages={stages} label={stageLabel} />
      </div>
    </ModalForm>
  );
}
