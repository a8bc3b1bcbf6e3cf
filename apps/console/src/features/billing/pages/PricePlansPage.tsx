import type { ProColumns } from '@ant-design/pro-components';
import type { StageTypeCode } from '@voltdepot/shared-contracts';
import type { PricePlanView } from '@voltdepot/console-api-client';
import { Space, Table, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { dateTimeColumn, gridDateTime } from '../../../app/grid/columns';
import { GridPage } from '../../../app/grid/GridPage';
import { billingApi } from '../api/billingApi';
import { BAND_COLORS } from '../components/bandColors';
import { exportButton, useBillingGrid } from '../components/billingGrid';
import { PricePlanFormModal } from '../components/PricePlanFormModal';
import { StageBandChart } from '../components/StageBandChart';
import { useDictionary } from '../hooks/useDictionary';
import { BILLING_PERMISSIONS as P } from '../permissions';

/** Price plans (/operation/pricePlan): the list with each plan's 24 hours, add, edit, delete, export. */
export function PricePlansPage() {
  const { t } = useTranslation();
  const stageTypes = useDictionary('charging_period_type');
  const [editing, setEditing] = useState<{ plan?: PricePlanView } | undefined>();
  const grid = useBillingGrid<PricePlanView>('pricePlans', (page, size, _filters, signal) =>
    billingApi.pricePlans(page, size, signal),
  );
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
          row.effectiveFrom ? gridDateTime(row.effectiveFrom) : t('billing.pricePlan.sinceAlways'),
      },
      dateTimeColumn<PricePlanView>(t('billing.updatedAt'), 'updatedAt', 180),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, stageTypes.options],
  );

  return (
    <>
      <GridPage<PricePlanView>
        grid={grid}
        title={t('billing.pricePlan.title')}
        texts="billing"
        pageSizeChanger
        columns={columns}
        toolbar={[
          { key: 'add', permission: P.pricePlanEdit, onClick: () => setEditing({}) },
          exportButton(P.pricePlanExport, 'price-plan-export', (_filters, lang) =>
            billingApi.exportPricePlans(lang),
          ),
        ]}
        rowActions={[
          { key: 'edit', permission: P.pricePlanEdit, onClick: (plan) => setEditing({ plan }) },
          {
            key: 'delete',
            permission: P.pricePlanEdit,
            confirm: (plan) => t('billing.pricePlan.confirmDelete', { name: plan.name }),
            onClick: (plan) => billingApi.deletePricePlan(plan.id),
          },
        ]}
        table={{
          expandable: {
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
          },
        }}
      />
      {editing && <PricePlanFormModal open plan={editing.plan} onClose={() => setEditing(undefined)} />}
    </>
  );
}
