import type { ProColumns } from '@ant-design/pro-components';
import type { DiscountPlanView } from '@voltdepot/console-api-client';
import { Tag } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { gridDateTime } from '../../../app/grid/columns';
import { GridPage } from '../../../app/grid/GridPage';
import { billingApi } from '../api/billingApi';
import { exportButton, useBillingGrid } from '../components/billingGrid';
import { DiscountPlanFormModal } from '../components/DiscountPlanFormModal';
import { useDictionary } from '../hooks/useDictionary';
import { BILLING_PERMISSIONS as P } from '../permissions';

/** Discount plans (/operation/discountPlan): list, add, edit, delete, export. */
export function DiscountPlansPage() {
  const { t } = useTranslation();
  const clientTypes = useDictionary('client_type');
  const [editing, setEditing] = useState<{ plan?: DiscountPlanView } | undefined>();
  const grid = useBillingGrid<DiscountPlanView>('discountPlans', (page, size, _filters, signal) =>
    billingApi.discountPlans(page, size, signal),
  );

  const columns = useMemo<ProColumns<DiscountPlanView>[]>(
    () => [
      { title: t('billing.discountPlan.name'), dataIndex: 'name', width: 200 },
      {
        title: t('billing.discountPlan.customerType'),
        dataIndex: 'customerType',
        width: 140,
        render: (_, row) => clientTypes.label(row.customerType),
      },
      {
        title: t('billing.discountPlan.priceDiscount'),
        dataIndex: 'priceDiscount',
        width: 120,
        render: (_, row) => `${row.priceDiscount}%`,
      },
      {
        title: t('billing.discountPlan.serviceFeeDiscount'),
        dataIndex: 'serviceFeeDiscount',
        width: 140,
        render: (_, row) => `${row.serviceFeeDiscount}%`,
      },
      {
        title: t('billing.discountPlan.validPeriod'),
        key: 'validPeriod',
        width: 330,
        render: (_, row) => `${gridDateTime(row.validFrom)} ~ ${gridDateTime(row.validTo)}`,
      },
      {
        title: t('billing.discountPlan.enabled'),
        dataIndex: 'enabled',
        width: 90,
        render: (_, row) =>
          row.enabled ? <Tag color="green">{t('billing.yes')}</Tag> : <Tag>{t('billing.no')}</Tag>,
      },
      {
        title: t('billing.discountPlan.details'),
        key: 'details',
        ellipsis: true,
        render: (_, row) => row.details.map((d) => d.idTag).join(', '),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, clientTypes.options],
  );

  return (
    <>
      <GridPage<DiscountPlanView>
        grid={grid}
        title={t('billing.discountPlan.title')}
        texts="billing"
        pageSizeChanger
        columns={columns}
        scrollX={1300}
        toolbar={[
          { key: 'add', permission: P.discountPlanEdit, onClick: () => setEditing({}) },
          exportButton(P.discountPlanExport, undefined, (_filters, lang) =>
            billingApi.exportDiscountPlans(lang),
          ),
        ]}
        rowActions={[
          { key: 'edit', permission: P.discountPlanEdit, onClick: (plan) => setEditing({ plan }) },
          {
            key: 'delete',
            permission: P.discountPlanEdit,
            confirm: (plan) => t('billing.discountPlan.confirmDelete', { name: plan.name }),
            onClick: (plan) => billingApi.deleteDiscountPlan(plan.id),
          },
        ]}
      />
      {editing && <DiscountPlanFormModal plan={editing.plan} onClose={() => setEditing(undefined)} />}
    </>
  );
}
