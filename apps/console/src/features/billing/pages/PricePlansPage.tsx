import { PlusOutlined } from '@ant-design/icons';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { useQueryClient } from '@tanstack/react-query';
import type { StageTypeCode } from '@voltdepot/shared-contracts';
import type { PricePlanView } from '@voltdepot/console-api-client';
import { GuardedButton, Permission, usePermission } from '@voltdepot/console-ui';
import { Space, Table, Tag } from 'antd';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../app/format/formatDateTime';
import { useGridRequest } from '../../../app/grid/useGridRequest';
import { billingApi } from '../api/billingApi';
import { BAND_COLORS } from '../components/bandColors';
import { ExportButton } from '../components/ExportButton';
import { PlanRowActions } from '../components/PlanRowActions';
import { PricePlanFormModal } from '../components/PricePlanFormModal';
import { StageBandChart } from '../components/StageBandChart';
import { useDictionary } from '../hooks/useDictionary';
import { BILLING_PERMISSIONS } from '../permissions';
import { billingQueryKeys } from '../queryKeys';

/** Price plans (/operation/pricePlan): the list with each plan's 24 hours, add, edit, delete, export. */
export function PricePlansPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const actionRef = useRef<ActionType>(null);
  const canEdit = usePermission(BILLING_PERMISSIONS.pricePlanEdit);
  const stageTypes = useDictionary('charging_period_type');
  const [editing, setEditing] = useState<{ plan?: PricePlanView } | undefined>();
  const request = useGridRequest<PricePlanView>({
    queryKey: (page, size) => billingQueryKeys.pricePlans(page, size),
    fetch: (page, size, _filters, signal) => billingApi.pricePlans(page, size, signal),
  });
  const reload = async () => {
    await queryClient.invalidateQueries({ queryKey: billingQueryKeys.pricePlansAll() });
    await actionRef.current?.reload();
  };
  const label = (type: StageTypeCode) => stageTypes.label(type);

  const columns = useMemo<ProColumns<PricePlanView>[]>(
    () => [
      { title: t('billing.pricePlan.name'), dataIndex: 'name', width: 220 },
      {
        title: t('billing.pricePlan.isDefault'),
        dataIndex: 'isDefault',
        width: 100,
        render: (_, row) => (row.isDefault ? <Tag color="blue">{t('billing.yes')}</Tag> : t('billing.no')),
      },
      {
        title: t('billing.pricePlan.stages'),
        key: 'stages',
        render: (_, row) => (
          <Space size={4} wrap>
            {row.stages.map((s, i) => (
              <Tag key={i} color={BAND_COLORS[s.stageType]}>
                {label(s.stageType)} {s.startTime}-{s.endTime} {s.electricityPrice}+{s.serviceFee}
              </Tag>
            ))}
          </Space>
        ),
      },
      {
        title: t('billing.pricePlan.currentFrom'),
        dataIndex: 'effectiveFrom',
        width: 180,
        render: (_, row) =>
          row.effectiveFrom ? formatDateTime(row.effectiveFrom) : t('billing.pricePlan.sinceAlways'),
      },
      {
        title: t('billing.updatedAt'),
        dataIndex: 'updatedAt',
        width: 180,
        render: (_, row) => formatDateTime(row.updatedAt),
      },
      {
        title: t('billing.actions'),
        key: 'actions',
        width: 160,
        hideInTable: !canEdit,
        render: (_, row) => (
          <PlanRowActions
            confirmDelete={t('billing.pricePlan.confirmDelete', { name: row.name })}
            onEdit={() => setEditing({ plan: row })}
            remove={() => billingApi.deletePricePlan(row.id)}
            onDeleted={reload}
          />
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, canEdit, stageTypes.options],
  );

  return (
    <>
      <ProTable<PricePlanView>
        headerTitle={t('billing.pricePlan.title')}
        rowKey="id"
        actionRef={actionRef}
        columns={columns}
        request={request}
        search={false}
        pagination={{ defaultPageSize: 10, showSizeChanger: true }}
        expandable={{
          expandedRowRender: (row) => (
            <div data-testid={`price-plan-detail-${row.id}`}>
              <Table
                size="small"
                rowKey={(_, i) => String(i)}
                pagination={false}
                dataSource={row.stages}
                columns={[
                  {
                    title: t('billing.pricePlan.stageType'),
                    dataIndex: 'stageType',
                    render: (v: StageTypeCode) => <Tag color={BAND_COLORS[v]}>{label(v)}</Tag>,
                  },
                  { title: t('billing.pricePlan.startTime'), dataIndex: 'startTime' },
                  { title: t('billing.pricePlan.endTime'), dataIndex: 'endTime' },
                  { title: t('billing.pricePlan.electricityPriceUnit'), dataIndex: 'electricityPrice' },
                  { title: t('billing.pricePlan.serviceFeeUnit'), dataIndex: 'serviceFee' },
                ]}
              />
              <StageBandChart stages={row.stages} label={label} height={200} />
            </div>
          ),
        }}
        toolBarRender={() => [
          <Permission key="add" code={BILLING_PERMISSIONS.pricePlanEdit}>
            <GuardedButton type="primary" icon={<PlusOutlined />} onClick={() => setEditing({})}>
              {t('billing.add')}
            </GuardedButton>
          </Permission>,
          <ExportButton
            key="export"
            permission={BILLING_PERMISSIONS.pricePlanExport}
            testId="price-plan-export"
            run={(lang) => billingApi.exportPricePlans(lang)}
          />,
        ]}
      />
      {editing && (
        <PricePlanFormModal
          open
          plan={editing.plan}
          onClose={() => {
            setEditing(undefined);
            void actionRef.current?.reload();
          }}
        />
      )}
    </>
  );
}
