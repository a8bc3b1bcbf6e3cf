import { ModalForm, ProFormRadio, ProFormTextArea } from '@ant-design/pro-components';
import { useQueryClient } from '@tanstack/react-query';
import type { ReviewDecision } from '@voltdepot/shared-contracts';
import type { ChargingOrderRow } from '@voltdepot/console-api-client';
import { Alert, App } from 'antd';
import { useTranslation } from 'react-i18next';
import { billingApi } from '../api/billingApi';
import { billingQueryKeys } from '../queryKeys';
import { AbnormalReasons } from './AbnormalReasons';

/**
 * Review an order held at settlement (approve it to be billed from its readings, or reject it) or one
 * flagged since it was billed (approve confirms it as billed; it is amended rather than rejected); the
 * reason is required and recorded with the reviewer. The api refuses an order it cannot price.
 */
export function ReviewOrderModal({ order, onClose }: { order: ChargingOrderRow; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const billed = order.payStatus !== 3;
  return (
    <ModalForm<{ decision: ReviewDecision; reason: string }>
      title={t('billing.review.title', { orderNo: order.orderNo })}
      open
      width={560}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
      modalProps={{ destroyOnHidden: true, maskClosable: false }}
      initialValues={{ decision: 'approve' }}
      onFinish={async (values) => {
        try {
          await billingApi.reviewOrder(order.id, { decision: values.decision, reason: values.reason.trim() });
        } catch {
          return false; // the request layer showed why (e.g. it cannot be priced)
        }
        void message.success(
          t(
            values.decision === 'reject'
              ? 'billing.review.rejected'
              : billed
                ? 'billing.review.confirmed'
                : 'billing.review.approved',
          ),
        );
        await queryClient.invalidateQueries({ queryKey: billingQueryKeys.list('orders') });
        await queryClient.invalidateQueries({ queryKey: billingQueryKeys.order(order.id) });
        return true;
      }}
    >
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 16 }}
        message={t('billing.order.abnormalReasons')}
        description={<AbnormalReasons reasons={order.abnormalReasons} />}
      />
      <ProFormRadio.Group
        name="decision"
        label={t('billing.review.decision')}
        options={[
          { value: 'approve', label: t('billing.review.approve') },
          { value: 'reject', label: t('billing.review.reject'), disabled: billed },
        ]}
        rules={[{ required: true }]}
      />
      <ProFormTextArea
        name="reason"
        label={t('billing.review.reason')}
        fieldProps={{ maxLength: 200, showCount: true, rows: 3 }}
        rules={[{ required: true, whitespace: true, message: t('billing.review.reasonRequired') }]}
      />
    </ModalForm>
  );
}
