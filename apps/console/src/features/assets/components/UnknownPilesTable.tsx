import { ModalForm, ProFormSelect, ProFormText } from '@ant-design/pro-components';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { Permission } from '@voltdepot/console-ui';
import { Alert, App, Modal, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../app/format/formatDateTime';
import { assetApi, ASSET_PAGE_SIZE } from '../api/assetApi';
import { useRefOptions } from '../hooks/useRefOptions';
import { assetsQueryKeys } from '../queryKeys';
import { messageOf, PATTERNS, textProblem, type Translate } from '../rules/formRules';
import type { UnknownPileAttempt } from '../types';
import { stationRefSpec } from '../grids/commonFields';

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
  const [page, setPage] = useState(1);
  const [registering, setRegistering] = useState<string | undefined>();
  const [issued, setIssued] = useState<{ chargePointId: string; password: string } | undefined>();
  const stations = useRefOptions(stationRefSpec, {}, registering !== undefined);
  const query = useQuery({
    queryKey: assetsQueryKeys.unknownPiles(page, ASSET_PAGE_SIZE),
    queryFn: ({ signal }) => assetApi.unknownPiles(page, ASSET_PAGE_SIZE, signal),
    placeholderData: keepPreviousData,
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
      <Table<UnknownPileAttempt>
        rowKey="chargePointId"
        data-testid="unknown-piles"
        loading={query.isFetching}
        dataSource={query.data?.list}
        pagination={{
          current: page,
          pageSize: ASSET_PAGE_SIZE,
          total: query.data?.total ?? 0,
          onChange: setPage,
          showTotal: (total) => t('common.total', { total }),
        }}
        columns={[
          { title: t('assets.field.chargePointId'), dataIndex: 'chargePointId' },
          { title: t('assets.unknown.addresses'), render: (_v, r) => r.remoteAddresses.join(', ') || '-' },
          { title: t('assets.unknown.attempts'), dataIndex: 'attempts', width: 100 },
          { title: t('assets.unknown.firstSeen'), render: (_v, r) => formatDateTime(r.firstSeenAt) },
          { title: t('assets.unknown.lastSeen'), render: (_v, r) => formatDateTime(r.lastSeenAt) },
          {
            title: t('assets.common.actions'),
            render: (_v, r) => (
              <Permission code="basic:host:add">
                <Typography.Link
                  data-testid={`register-${r.chargePointId}`}
                  onClick={() => setRegistering(r.chargePointId)}
                >
                  {t('assets.unknown.register')}
                </Typography.Link>
              </Permission>
            ),
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
