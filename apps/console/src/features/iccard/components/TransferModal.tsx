import { useQuery, useQueryClient } from '@tanstack/react-query';
import { parseRechargeAmount } from '@voltdepot/shared-contracts';
import { App, Form, Input, Modal, Select, Space, Typography } from 'antd';
import { useRef, useState } from 'react';
import { formatYuan } from '../../../app/format/money';
import { icCardApi } from '../api/icCardApi';
import { newRequestId } from '../hooks/cardActionFlow';
import { useText } from '../hooks/useText';
import { icCardQueryKeys } from '../queryKeys';

export type TransferDirection = 'allocate' | 'reclaim';
type Values = { memberId: number; amount: string };

/**
 * Moves balance from a group's account to one of its users' sub-accounts, or back. One request id per
 * operation: pressing OK again with the same user and amount (after no answer) retries it; changing
 * either makes a new operation.
 */
export function TransferModal({
  groupId,
  groupName,
  direction,
  memberId,
  onClose,
}: {
  groupId: number;
  groupName: string;
  direction: TransferDirection;
  /** The user, when chosen already (a row of the group's users). */
  memberId?: number;
  onClose: () => void;
}) {
  const { t } = useText();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);
  const last = useRef<{ key: string; requestId: string }>();
  const info = useQuery({
    queryKey: icCardQueryKeys.group(groupId),
    queryFn: ({ signal }) => icCardApi.group(groupId, signal),
  });
  const members = info.data?.members ?? [];
  const directionLabel = t(`iccard.group.${direction}`);

  const submit = async () => {
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const amount = values.amount.trim();
    const key = `${values.memberId}:${amount}`;
    if (last.current?.key !== key) last.current = { key, requestId: newRequestId() };
    setBusy(true);
    try {
      const result = await icCardApi.transfer(groupId, direction, {
        requestId: last.current.requestId,
        memberId: values.memberId,
        amount,
      });
      if (!result) return; // no answer: the request layer said so; OK again retries with the same id
      if (result.replayed) void message.info(t('iccard.operate.replayed'));
      void message.success(t('iccard.group.transferred', { direction: directionLabel }));
      await queryClient.invalidateQueries({ queryKey: icCardQueryKeys.all });
      onClose();
    } catch {
      // the request layer showed the server's message
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title={t('iccard.group.transferTitle', { direction: directionLabel, group: groupName })}
      okButtonProps={{ loading: busy, 'data-testid': 'transfer-ok' }}
      onOk={() => void submit()}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Typography.Text>
          {t('iccard.group.groupBalance', { balance: formatYuan(info.data?.account.balanceFen) })}
        </Typography.Text>
        <Form form={form} layout="vertical" initialValues={{ memberId }}>
          <Form.Item
            name="memberId"
            label={t('iccard.group.member')}
            rules={[{ required: true, message: t('iccard.group.memberRequired') }]}
          >
            <Select
              showSearch
              optionFilterProp="label"
              disabled={memberId !== undefined}
              loading={info.isFetching}
              data-testid="transfer-member"
              options={members.map((m) => ({
                value: m.customerId,
                label: `${m.userName} (${t('iccard.group.memberBalance', { balance: formatYuan(m.balanceFen) })})`,
              }))}
            />
          </Form.Item>
          <Form.Item
            name="amount"
            label={t('iccard.group.amount')}
            rules={[
              {
                validator: (_: unknown, value: string | undefined) => {
                  const parsed = parseRechargeAmount(value);
                  if (parsed.ok) return Promise.resolve();
                  const code =
                    parsed.code === 'rechargeAmountRequired' ? 'accountBalanceRequired' : parsed.code;
                  return Promise.reject(new Error(t(`iccard.message.${code}`)));
                },
              },
            ]}
          >
            <Input maxLength={12} inputMode="decimal" data-testid="transfer-amount" />
          </Form.Item>
        </Form>
      </Space>
    </Modal>
  );
}
