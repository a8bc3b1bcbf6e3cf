import { ModalForm, ProFormText } from '@ant-design/pro-components';
import { usePermissions } from '@voltdepot/console-ui';
import { App, Popconfirm, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { assetApi, type CardActionName } from '../api/assetApi';
import { messageOf, PATTERNS, textProblem, type Translate } from '../rules/formRules';
import type { AssetRow } from '../types';

/** business-areas §4: which actions a card in a status can take (a card not in normal status cannot be operated). */
export const ACTIONS_BY_STATUS: Record<string, CardActionName[]> = {
  notMade: ['make'],
  normal: ['reportLoss', 'swap', 'logout'],
  lost: ['releaseLoss', 'replace'],
};

const NEEDS_NEW_NUMBER: CardActionName[] = ['replace', 'swap'];

/** The actions of one card row, each behind its own button permission (basic:cardConfig:<action>). */
export function CardActions({ row, onDone }: { row: AssetRow; onDone: () => void }) {
  const { t } = useTranslation();
  const tx = t as unknown as Translate;
  const { message } = App.useApp();
  const permissions = usePermissions();
  const [numberFor, setNumberFor] = useState<CardActionName | undefined>();
  const actions = (ACTIONS_BY_STATUS[String(row['status'])] ?? []).filter((a) =>
    permissions.has(`basic:cardConfig:${a}`),
  );

  const run = async (action: CardActionName, physicalNumber?: string) => {
    try {
      await assetApi.cardAction(row.id, action, physicalNumber);
    } catch {
      return false;
    }
    void message.success(tx('assets.card.done', { action: tx(`assets.card.${action}`) }));
    onDone();
    return true;
  };

  return (
    <>
      {actions.map((action) =>
        NEEDS_NEW_NUMBER.includes(action) ? (
          <Typography.Link
            key={action}
            data-testid={`card-${action}-${row.id}`}
            onClick={() => setNumberFor(action)}
          >
            {tx(`assets.card.${action}`)}
          </Typography.Link>
        ) : (
          <Popconfirm
            key={action}
            title={tx(`assets.card.confirm`, { action: tx(`assets.card.${action}`) })}
            okText={t('common.ok')}
            cancelText={t('common.cancel')}
            onConfirm={() => run(action)}
          >
            <Typography.Link data-testid={`card-${action}-${row.id}`}>
              {tx(`assets.card.${action}`)}
            </Typography.Link>
          </Popconfirm>
        ),
      )}
      <ModalForm<{ physicalNumber: string }>
        title={numberFor ? tx(`assets.card.${numberFor}`) : ''}
        open={numberFor !== undefined}
        width={420}
        modalProps={{ destroyOnHidden: true, onCancel: () => setNumberFor(undefined) }}
        onFinish={async (values) => {
          const ok = await run(numberFor!, values.physicalNumber.trim());
          if (ok) setNumberFor(undefined);
          return ok;
        }}
      >
        <ProFormText
          name="physicalNumber"
          label={t('assets.card.newPhysicalNumber')}
          rules={[
            {
              required: true,
              whitespace: true,
              message: messageOf(tx, { key: 'required' }, t('assets.field.physicalNumber')),
            },
            {
              validator: async (_r, value: unknown) => {
                const problem = textProblem(value, { max: 16, pattern: PATTERNS.physicalNumber });
                if (problem) throw new Error(messageOf(tx, problem, t('assets.field.physicalNumber')));
                if (value === row['physicalNumber']) throw new Error(t('assets.card.sameNumber'));
              },
            },
          ]}
        />
      </ModalForm>
    </>
  );
}
