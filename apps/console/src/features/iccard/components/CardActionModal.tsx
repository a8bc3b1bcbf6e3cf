import { useQueryClient } from '@tanstack/react-query';
import {
  parseRechargeAmount,
  proofOf,
  type IcCardAction,
  type IcCardMessageCode,
} from '@voltdepot/shared-contracts';
import { Alert, App, Form, Input, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useText } from '../hooks/useText';
import { formatYuan } from '../../../app/format/money';
import { icCardApi } from '../api/icCardApi';
import {
  advanceRun,
  inputsOf,
  startRun,
  type ActionCard,
  type CardActionFailure,
  type CardActionRun,
  type CardActionStep,
} from '../hooks/cardActionFlow';
import { useCardReader } from '../hooks/cardReader';
import { icCardQueryKeys } from '../queryKeys';
import { ReaderIndicator } from './ReaderIndicator';

type Values = { certificateNumber?: string; amount?: string };

const SUCCESS: Partial<Record<IcCardAction, IcCardMessageCode>> = {
  read: 'cardReadSucceeded',
  recharge: 'rechargeSucceeded',
  refundWithCard: 'refundSucceeded',
  refundWithoutCard: 'refundSucceeded',
};

/** What the card's next action is after this one: a refund asks whether to log the card out (§4). */
export type FollowUp = { action: 'logout'; card: ActionCard; certificateNumber?: string };

/**
 * One card action from the click to the end (docs/ic-cards.md): asks what the action needs (the
 * holder's certificate number, an amount), then runs reader → server → card write. A failed step is
 * shown with its message (the reader's §8 message by code, the server's refusal) and "retry" goes on
 * from it with the same request id.
 */
export function CardActionModal({
  action,
  card,
  certificateNumber,
  onClose,
  onFollowUp,
}: {
  action: IcCardAction;
  card: ActionCard;
  /** Known already (a log-out after a refund without card). */
  certificateNumber?: string;
  onClose: () => void;
  onFollowUp?: (next: FollowUp) => void;
}) {
  const { t } = useText();
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const { reader, url } = useCardReader();
  const [form] = Form.useForm<Values>();
  const [run, setRun] = useState<CardActionRun>();
  const [step, setStep] = useState<CardActionStep>();
  const [failure, setFailure] = useState<CardActionFailure>();
  const [busy, setBusy] = useState(false);
  const inputs = inputsOf(action, card);
  // The reader is asked only by the actions that use it (an action by certificate never touches it).
  const usesReader =
    action === 'makeCpu' ||
    action === 'makeM1' ||
    action === 'read' ||
    proofOf(action, card.status) === 'card';
  const actionLabel = t(`iccard.action.${action}`);
  const label = (code: IcCardMessageCode) => t(`iccard.message.${code}`);

  const finish = async (done: CardActionRun) => {
    const result = done.result!;
    await queryClient.invalidateQueries({ queryKey: icCardQueryKeys.all });
    if (result.replayed) void message.info(t('iccard.operate.replayed'));
    const success = SUCCESS[action];
    void message.success(success ? label(success) : t('iccard.operate.done', { action: actionLabel }));
    const notes = result.record.notes.filter((note): note is IcCardMessageCode => note !== 'askLogout');
    for (const note of notes) void message.info(label(note));
    onClose();
    if (result.record.notes.includes('askLogout') && result.card.balanceFen === 0) {
      modal.confirm({
        title: label('askLogout'),
        okText: t('iccard.operate.logoutNow'),
        cancelText: t('iccard.operate.logoutLater'),
        okButtonProps: { 'data-testid': 'ask-logout-ok' },
        onOk: () =>
          onFollowUp?.({
            action: 'logout',
            card: result.card,
            certificateNumber: done.certificateNumber,
          }),
      });
    }
  };

  const go = async () => {
    let current = run;
    if (!current) {
      let values: Values;
      try {
        values = await form.validateFields();
      } catch {
        return;
      }
      current = startRun(action, card, {
        certificateNumber: values.certificateNumber ?? certificateNumber,
        amount: values.amount,
      });
      setRun(current);
    }
    setBusy(true);
    setFailure(undefined);
    const outcome = await advanceRun(current, { reader, perform: icCardApi.perform, onStep: setStep });
    setBusy(false);
    setStep(undefined);
    setRun(outcome.run);
    if (outcome.ok) await finish(outcome.run);
    else setFailure(outcome.failure);
  };

  const amountRule = {
    validator: (_: unknown, value: string | undefined) => {
      if (inputs.amount === 'optional' && !value?.trim()) return Promise.resolve();
      const parsed = parseRechargeAmount(value);
      return parsed.ok ? Promise.resolve() : Promise.reject(new Error(label(parsed.code)));
    },
  };

  return (
    <Modal
      open
      title={t('iccard.operate.title', { action: actionLabel, cardNo: card.cardNo })}
      okText={run ? t('iccard.retry') : undefined}
      okButtonProps={{ loading: busy, 'data-testid': 'card-action-ok' }}
      onOk={() => void go()}
      onCancel={onClose}
      maskClosable={false}
      destroyOnHidden
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        {usesReader && <ReaderIndicator checkOnShow />}
        <Typography.Text>
          {t('iccard.operate.balance', { balance: formatYuan(card.balanceFen) })}
        </Typography.Text>
        <Form
          form={form}
          layout="vertical"
          disabled={run !== undefined}
          initialValues={{ certificateNumber }}
        >
          {inputs.certificate && (
            <Form.Item
              name="certificateNumber"
              label={t('iccard.operate.certificateNumber')}
              extra={t('iccard.operate.certificatePrompt')}
              rules={[{ required: true, whitespace: true, message: label('certificateNumberRequired') }]}
            >
              <Input maxLength={32} data-testid="certificate-input" />
            </Form.Item>
          )}
          {inputs.amount && (
            <Form.Item
              name="amount"
              label={t(
                inputs.amount === 'required' ? 'iccard.operate.amount' : 'iccard.operate.refundAmount',
              )}
              extra={inputs.amount === 'optional' ? t('iccard.operate.refundAllHint') : undefined}
              rules={[amountRule]}
            >
              <Input maxLength={12} inputMode="decimal" data-testid="amount-input" />
            </Form.Item>
          )}
        </Form>
        {step && (
          <Typography.Text type="secondary" data-testid="card-action-step">
            {t(
              step === 'server'
                ? 'iccard.reader.sending'
                : step === 'write'
                  ? 'iccard.reader.writing'
                  : action.startsWith('make')
                    ? 'iccard.reader.making'
                    : 'iccard.reader.reading',
            )}
          </Typography.Text>
        )}
        {failure && (
          <Alert
            type="error"
            showIcon
            data-testid="card-action-failure"
            message={failureText(failure, label, t)}
            description={
              failure.step === 'server'
                ? t('iccard.operate.serverFailed')
                : failure.step === 'write'
                  ? t('iccard.operate.writeFailed')
                  : failure.connection
                    ? t('iccard.reader.notRunning', { url })
                    : undefined
            }
          />
        )}
      </Space>
    </Modal>
  );
}

function failureText(
  failure: CardActionFailure,
  label: (code: IcCardMessageCode) => string,
  t: (key: string) => string,
): string {
  if (failure.step !== 'server') return label(failure.code);
  return failure.code ? label(failure.code) : (failure.message ?? t('iccard.operate.serverFailed'));
}
