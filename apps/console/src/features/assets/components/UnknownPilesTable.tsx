import { DownloadOutlined } from '@ant-design/icons';
import { type ActionType, ModalForm, ProFormSelect, ProFormText, ProTable } from '@ant-design/pro-components';
import { useQueryClient } from '@tanstack/react-query';
import { GuardedButton, Permission } from '@voltdepot/console-ui';
import { Alert, App, Modal, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../app/format/formatDateTime';
import { useGridRequest } from '../../../app/grid/useGridRequest';
import { useLocale } from '../../../app/providers/useLocale';
import { assetApi, ASSET_PAGE_SIZE } from '../api/assetApi';
import { useRefOptions } from '../hooks/useRefOptions';
import { HOST_BUTTONS } from '../permissions';
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
  const { locale } = useLocale();
  const queryClient = useQueryClient();
  const actionRef = useRef<ActionType>(undefined);
  const [registering, setRegistering] = useState<string | undefined>();
  const [issued, setIssued] = useState<{ chargePointId: string; password: string } | undefined>();
  const stations = useRefOptions(stationRefSpec, {}, registering !== undefined);
  const request = useGridRequest<UnknownPileAttempt>({
    queryKey: (page, size) => assetsQueryKeys.unknownPiles(page, size),
    fetch: (page, size, _filters, signal) => assetApi.unknownPiles(page, size, signal),
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
      <ProTable<UnknownPileAttempt>
        rowKey="chargePointId"
        data-testid="unknown-piles"
        headerTitle={t('assets.unknown.title')}
        actionRef={actionRef}
        request={request}
        search={false}
        cardBordered
        options={{ density: false, setting: false, reload: true }}
        pagination={{
          pageSize: ASSET_PAGE_SIZE,
          showSizeChanger: false,
          showTotal: (total) => t('common.total', { total }),
        }}
        toolBarRender={() => [
          <Permission key="export" code={HOST_BUTTONS.unknownExport}>
            <GuardedButton
              icon={<DownloadOutlined />}
              data-testid="export-unknown-piles"
              onClick={async () => {
                const saved = await assetApi.exportUnknownPiles(
                  locale,
                  `${t('assets.unknown.title')}${t('assets.common.exportFile')}.xlsx`,
                );
                if (saved) void message.success(t('assets.common.exported', { name: saved }));
              }}
            >
              {t('assets.common.export')}
            </GuardedButton>
          </Permission>,
        ]}
        columns={[
          { title: t('assets.field.chargePointId'), dataIndex: 'chargePointId' },
          {
            title: t('assets.unknown.addresses'),
            dataIndex: 'remoteAddresses',
            render: (_v, r) => r.remoteAddresses.join(', ') || '-',
          },
          { title: t('assets.unknown.attempts'), dataIndex: 'attempts', width: 100 },
          {
            title: t('assets.unknown.firstSeen'),
            dataIndex: 'firstSeenAt',
            render: (_v, r) => formatDateTime(r.firstSeenAt),
          },
          {
            title: t('assets.unknown.lastSeen'),
            dataIndex: 'lastSeenAt',
            render: (_v, r) => formatDateTime(r.lastSeenAt),
          },
          {
            title: t('assets.common.actions'),
            valueType: 'option',
            render: (_v, r) => (
              <Permission key="register" code={HOST_BUTTONS.add}>
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
          void actionRef.current?.reload();
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
