import { ModalForm, ProFormSelect, ProFormText } from '@ant-design/pro-components';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dateTimeColumn } from '../../../app/grid/columns';
import { GridPage } from '../../../app/grid/GridPage';
import { usePagedGrid } from '../../../app/grid/useGrid';
import { assetApi, ASSET_PAGE_SIZE } from '../api/assetApi';
import { stationRefSpec } from '../grids/commonFields';
import { useRefOptions } from '../hooks/useRefOptions';
import { HOST_BUTTONS } from '../permissions';
import { assetsQueryKeys } from '../queryKeys';
import { messageOf, PATTERNS, textProblem, type Translate } from '../rules/formRules';
import type { UnknownPileAttempt } from '../types';

type RegisterValues = { stationId?: number; name?: string; number?: string; ocppPassword?: string };

/**
 * Charge points the gateway turned away because no host has their id, with one-click "register": the
 * pile becomes a host under construction with a fresh OCPP password, shown once.
 */
export function UnknownPilesTable() {
  const { t } = useTranslation();
  const tx = t as unknown as Translate;
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [registering, setRegistering] = useState<string | undefined>();
  const [issued, setIssued] = useState<{ chargePointId: string; password: string } | undefined>();
  const stations = useRefOptions(stationRefSpec, {}, registering !== undefined);
  const grid = usePagedGrid<UnknownPileAttempt>({
    listKey: assetsQueryKeys.unknownPiles(),
    fetch: (page, size, _filters, signal) => assetApi.unknownPiles(page, size, signal),
    pageSize: ASSET_PAGE_SIZE,
    searchForm: false,
  });

  const textRule = (
    label: string,
    max: number,
    min = 1,
    pattern?: { regex: RegExp; key: 'ocppPassword' },
  ) => ({
    validator: async (_r: unknown, value: unknown) => {
      const problem = textProblem(value, { max, min, pattern });
      if (problem) throw new Error(messageOf(tx, problem, label));
    },
  });

  return (
    <>
      <Alert type="info" showIcon message={t('assets.unknown.hint')} style={{ marginBottom: 16 }} />
      <GridPage<UnknownPileAttempt>
        grid={grid}
        title={t('assets.unknown.title')}
        testId="unknown-piles"
        texts="assets.common"
        rowKey="chargePointId"
        toolbar={[
          {
            key: 'export',
            permission: HOST_BUTTONS.unknownExport,
            testId: 'export-unknown-piles',
            onClick: ({ locale }) =>
              assetApi.exportUnknownPiles(
                locale,
                `${t('assets.unknown.title')}${t('assets.common.exportFile')}.xlsx`,
              ),
          },
        ]}
        columns={[
          { title: t('assets.field.chargePointId'), dataIndex: 'chargePointId' },
          {
            title: t('assets.unknown.addresses'),
            dataIndex: 'remoteAddresses',
            render: (_v, r) => r.remoteAddresses.join(', ') || '-',
          },
          { title: t('assets.unknown.attempts'), dataIndex: 'attempts', width: 100 },
          dateTimeColumn<UnknownPileAttempt>(t('assets.unknown.firstSeen'), 'firstSeenAt'),
          dateTimeColumn<UnknownPileAttempt>(t('assets.unknown.lastSeen'), 'lastSeenAt'),
        ]}
        rowActions={[
          {
            key: 'register',
            label: t('assets.unknown.register'),
            permission: HOST_BUTTONS.add,
            testId: (r) => `register-${r.chargePointId}`,
            onClick: (r) => setRegistering(r.chargePointId),
          },
        ]}
      />
      <ModalForm<RegisterValues>
        title={t('assets.unknown.registerTitle', { id: registering ?? '' })}
        open={registering !== undefined}
        width={520}
        modalProps={{ destroyOnHidden: true, onCancel: () => setRegistering(undefined) }}
        onFinish={async (values) => {
          const chargePointId = registering!;
          const body = Object.fromEntries(
            Object.entries(values).filter(
              ([, v]) => v !== undefined && v !== null && String(v).trim() !== '',
            ),
          );
          let result: Awaited<ReturnType<typeof assetApi.registerUnknown>>;
          try {
            result = await assetApi.registerUnknown(chargePointId, body);
          } catch {
            return false;
          }
          if (!result) return false;
          void message.success(t('assets.unknown.registered'));
          setRegistering(undefined);
          setIssued({ chargePointId, password: result.ocppPassword });
          void queryClient.invalidateQueries({ queryKey: assetsQueryKeys.all });
          return true;
        }}
      >
        <ProFormSelect
          name="stationId"
          label={t('assets.field.station')}
          options={stations.options}
          showSearch
          fieldProps={{ optionFilterProp: 'label' }}
        />
        <ProFormText
          name="name"
          label={t('assets.field.name')}
          rules={[textRule(t('assets.field.name'), 32)]}
        />
        <ProFormText
          name="number"
          label={t('assets.field.number')}
          rules={[textRule(t('assets.field.number'), 16)]}
        />
        <ProFormText.Password
          name="ocppPassword"
          label={t('assets.field.ocppPassword')}
          placeholder={t('assets.unknown.passwordGenerated')}
          rules={[
            textRule(
              t('assets.field.ocppPassword'),
              40,
              16,
              PATTERNS.ocppPassword as { regex: RegExp; key: 'ocppPassword' },
            ),
          ]}
        />
      </ModalForm>
      <Modal
        open={issued !== undefined}
        title={t('assets.unknown.passwordTitle', { id: issued?.chargePointId ?? '' })}
        onOk={() => setIssued(undefined)}
        onCancel={() => setIssued(undefined)}
        cancelButtonProps={{ style: { display: 'none' } }}
        okButtonProps={{ 'data-testid': 'issued-password-ok' } as never}
      >
        <Alert
          type="warning"
          showIcon
          message={t('assets.unknown.passwordOnce')}
          style={{ marginBottom: 12 }}
        />
        <Typography.Text code copyable data-testid="issued-password">
          {issued?.password}
        </Typography.Text>
      </Modal>
    </>
  );
}
