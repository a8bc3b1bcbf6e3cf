import { ModalForm, ProFormSelect, ProFormText } from '@ant-design/pro-components';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { CARD_TYPES, IC_CARD_CHIPS, type CardType, type IcCardChip } from '@voltdepot/shared-contracts';
import { App } from 'antd';
import { useState } from 'react';
import { useText } from '../hooks/useText';
import { icCardApi } from '../api/icCardApi';
import { icCardQueryKeys } from '../queryKeys';

type Values = { cardNo: string; chip: IcCardChip; cardType: string; customerId: number };

/** Register a card (not made yet): its number, chip, card type 0-3 and holder. */
export function CardFormModal({
  chip,
  cardType,
  onClose,
}: {
  chip?: IcCardChip;
  /** A list of one card type (driver cards) registers that type. */
  cardType?: CardType;
  onClose: () => void;
}) {
  const { t } = useText();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const customers = useQuery({
    queryKey: [...icCardQueryKeys.list('customers'), 'options', search],
    queryFn: async ({ signal }) =>
      (await icCardApi.customers(1, 50, search.trim() ? { userName: search.trim() } : {}, signal)).list,
    staleTime: 30_000,
  });

  const submit = async (values: Values) => {
    try {
      await icCardApi.createCard({
        cardNo: values.cardNo.trim(),
        chip: values.chip,
        cardType: Number(values.cardType) as CardType,
        customerId: values.customerId,
      });
    } catch {
      return false; // the request layer showed the api's message (a repeated number: selfNumberRepeated)
    }
    void message.success(t('iccard.saved'));
    await queryClient.invalidateQueries({ queryKey: icCardQueryKeys.list('cards') });
    return true;
  };

  return (
    <ModalForm<Values>
      title={t('iccard.card.register')}
      open
      width={520}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
      modalProps={{ destroyOnHidden: true, maskClosable: false }}
      initialValues={{ chip: chip ?? 'CPU', cardType: cardType === undefined ? undefined : String(cardType) }}
      onFinish={submit}
    >
      <ProFormText
        name="cardNo"
        label={t('iccard.card.cardNo')}
        fieldProps={{ maxLength: 32 }}
        rules={[
          { required: true, whitespace: true, message: t('iccard.message.cardNumberRequired') },
          { pattern: /^\s*[A-Za-z0-9-]{1,32}\s*$/, message: t('iccard.card.cardNoFormat') },
        ]}
      />
      <ProFormSelect
        name="chip"
        label={t('iccard.card.chip')}
        disabled={chip !== undefined}
        options={IC_CARD_CHIPS.map((code) => ({ value: code, label: t(`iccard.chip.${code}`) }))}
        rules={[{ required: true }]}
      />
      <ProFormSelect
        name="cardType"
        label={t('iccard.card.cardType')}
        disabled={cardType !== undefined}
        options={CARD_TYPES.map((code) => ({ value: String(code), label: t(`iccard.cardType.${code}`) }))}
        rules={[{ required: true, message: t('iccard.card.cardTypeRequired') }]}
      />
      <ProFormSelect
        name="customerId"
        label={t('iccard.card.customer')}
        showSearch
        fieldProps={{ filterOption: false, onSearch: setSearch, loading: customers.isFetching }}
        options={(customers.data ?? []).map((c) => ({
          value: c.id,
          label: `${c.userName} (${t(`iccard.clientType.${c.clientType}`, { defaultValue: '-' })})`,
        }))}
        rules={[{ required: true, message: t('iccard.card.customerRequired') }]}
      />
    </ModalForm>
  );
}
