import { ModalForm, ProFormDigit, ProFormRadio, ProFormTextArea } from '@ant-design/pro-components';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ChargingOrderRow, OrderAmendmentPreview } from '@voltdepot/console-api-client';
import { Alert, App, Form, Table, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { billingApi } from '../api/billingApi';
import { useDictionary } from '../hooks/useDictionary';
import { billingQueryKeys } from '../queryKeys';
import { formatKwh, formatYuan } from '../../../app/format/money';

type Correction = 'meterStopWh' | 'energyWh';
type Values = { by: Correction; kwh?: number | null; reason: string };

/** A new id per opened form: a retried save finds the version the first one made. */
function newRequestId(): string {
  return globalThis.crypto?.randomUUID
    ? globalThis.crypto.randomUUID()
    : `amend-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

/** kW·h as typed (3 decimals) to whole Wh. */
export const whOfKwh = (kwh: number): number => Math.round(kwh * 1000);

/** The value the preview asks for, once the user stopped typing for a moment. */
function useSettled<T>(value: T, ms = 300): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

const signed = (text: string, n: number) => (n > 0 ? `+${text}` : text);

/**
 * Amend an order (a new version of it): its meter stop or its energy, with a reason. Shows the order now,
 * amended and the difference (the api's preview) before saving; a held order's amounts stay 0 until it
 * is approved. Saved once per opened form, however often the save is retried.
 */
export function AmendOrderModal({
  order,
  onClose,
}: {
  order: Pick<ChargingOrderRow, 'id' | 'orderNo' | 'payStatus'>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const payStatus = useDictionary('pay_status');
  const [form] = Form.useForm<Values>();
  const [requestId] = useState(newRequestId);
  const by = Form.useWatch('by', form) ?? 'meterStopWh';
  const kwh = Form.useWatch('kwh', form);
  const wh = useSettled(typeof kwh === 'number' && kwh >= 0 ? whOfKwh(kwh) : undefined);
  const preview = useQuery({
    queryKey: billingQueryKeys.amendmentPreview(order.id, by, wh ?? -1),
    queryFn: ({ signal }) => billingApi.previewAmendment(order.id, { [by]: wh }, signal),
    enabled: wh !== undefined,
    retry: false,
  });

  return (
    <ModalForm<Values>
      form={form}
      title={t('billing.amend.title', { orderNo: order.orderNo })}
      open
      width={640}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
      modalProps={{ destroyOnHidden: true, maskClosable: false }}
      initialValues={{ by: 'meterStopWh' }}
      onFinish={async (values) => {
        let saved;
        try {
          saved = await billingApi.amendOrder(order.id, {
            [values.by]: whOfKwh(values.kwh!),
            reason: values.reason.trim(),
            requestId,
          });
        } catch {
          return false; // the request layer showed why
        }
        if (!saved) return false;
        void message.success(t('billing.amend.saved', { version: saved.version }));
        await queryClient.invalidateQueries({ queryKey: billingQueryKeys.list('orders') });
        await queryClient.invalidateQueries({ queryKey: billingQueryKeys.order(order.id) });
        return true;
      }}
    >
      <ProFormRadio.Group
        name="by"
        label={t('billing.amend.by')}
        options={[
          { value: 'meterStopWh', label: t('billing.amend.byMeterStop') },
          { value: 'energyWh', label: t('billing.amend.byEnergy') },
        ]}
      />
      <ProFormDigit
        name="kwh"
        label={t('billing.amend.valueKwh')}
        min={0}
        fieldProps={{ precision: 3, step: 0.001, 'aria-label': t('billing.amend.valueKwh') }}
        rules={[{ required: true, message: t('billing.amend.valueRequired') }]}
      />
      {preview.data && <AmendmentPreview preview={preview.data} label={payStatus.label} />}
      {order.payStatus === 3 && (
        <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t('billing.amend.held')} />
      )}
      <ProFormTextArea
        name="reason"
        label={t('billing.amend.reason')}
        fieldProps={{ maxLength: 200, showCount: true, rows: 3 }}
        rules={[{ required: true, whitespace: true, message: t('billing.amend.reasonRequired') }]}
      />
    </ModalForm>
  );
}

/** The order now, amended and the difference, figure by figure. */
function AmendmentPreview({
  preview,
  label,
}: {
  preview: OrderAmendmentPreview;
  label: (code: unknown) => string;
}) {
  const { t } = useTranslation();
  const { current, amended, difference } = preview;
  const rows = [
    {
      key: 'meterStop',
      figure: t('billing.amend.meterStop'),
      current: formatKwh(current.meterStopWh),
      amended: formatKwh(amended.meterStopWh),
      difference: signed(formatKwh(difference.meterStopWh), difference.meterStopWh),
    },
    {
      key: 'energy',
      figure: t('billing.amend.energy'),
      current: formatKwh(current.energyWh),
      amended: formatKwh(amended.energyWh),
      difference: signed(formatKwh(difference.energyWh), difference.energyWh),
    },
    {
      key: 'total',
      figure: t('billing.amend.total'),
      current: formatYuan(current.totalFen),
      amended: formatYuan(amended.totalFen),
      difference: signed(formatYuan(difference.totalFen), difference.totalFen),
    },
    {
      key: 'payStatus',
      figure: t('billing.amend.payStatus'),
      current: label(current.payStatus),
      amended: label(amended.payStatus),
      difference: '',
    },
  ];
  return (
    <Table
      size="small"
      pagination={false}
      style={{ marginBottom: 16 }}
      data-testid="amend-preview"
      title={() => <Typography.Text strong>{t('billing.amend.preview')}</Typography.Text>}
      dataSource={rows}
      columns={[
        { title: '', dataIndex: 'figure' },
        { title: t('billing.amend.current'), dataIndex: 'current', align: 'right' },
        { title: t('billing.amend.amended'), dataIndex: 'amended', align: 'right' },
        {
          title: t('billing.amend.difference'),
          dataIndex: 'difference',
          align: 'right',
          render: (text: string) => (
            <Typography.Text strong data-testid="amend-difference">
              {text}
            </Typography.Text>
          ),
        },
      ]}
    />
  );
}
