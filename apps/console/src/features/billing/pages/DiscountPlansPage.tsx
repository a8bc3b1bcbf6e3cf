import { PlusOutlined } from '@ant-design/icons';
import { ProTable, type ActionType, type ProColumns } from '@ant-design/pro-components';
import { useQueryClient } from '@tanstack/react-query';
import type { DiscountPlanView } from '@voltdepot/console-api-client';
import { GuardedButton, Permission, usePermission } from '@voltdepot/console-ui';
import { Tag } from 'antd';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../app/format/formatDateTime';
import { useGridRequest } from '../../../app/grid/useGridRequest';
import { billingApi } from '../api/billingApi';
import { DiscountPlanFormModal } from '../components/DiscountPlanFormModal';
import { ExportButton } from '../components/ExportButton';
import { PlanRowActions } from '../components/PlanRowActions';
import { useDictionary } from '../hooks/useDictionary';
import { BILLING_PERMISSIONS } from '../permissions';
import { billingQueryKeys } from '../queryKeys';

/** Discount plans (/operation/discountPlan): list, add, edit, delete, export. */
export function DiscountPlansPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const actionRef = useRef<ActionType>(null);
  const canEdit = usePermission(BILLING_PERMISSIONS.discountPlanEdit);
  const clientTypes = useDictionary('client_type');
  const [editing, setEditing] = useState<{ plan?: DiscountPlanView } | undefined>();
  const request = useGridRequest<DiscountPlanView>({
    queryKey: (page, size) => billingQueryKeys.discountPlans(page, size),
    fetch: (page, size, _filters, signal) => billingApi.discountPlans(page, size, signal),
  });
  const reload = async () => {
    await queryClient.invalidateQueries({ queryKey: billingQueryKeys.discountPlansAll() });
    await actionRef.current?.reload();
  };

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
        render: (_, row) => `${formatDateTime(row.validFrom)} ~ ${formatDateTime(row.validTo)}`,
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
      {
        title: t('billing.actions'),
        key: 'actions',
        width: 150,
        hideInTable: !canEdit,
        render: (_, row) => (
          <PlanRowActions
            confirmDelete={t('billing.discountPlan.confirmDelete', { name: row.name })}
            onEdit={() => setEditing({ plan: row })}
            remove={() => billingApi.deleteDiscountPlan(row.id)}
            onDeleted={reload}
          />
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, canEdit, clientTypes.options],
  );

  return (
    <>
      <ProTable<DiscountPlanView>
        headerTitle={t('billing.discountPlan.title')}
        rowKey="id"
        actionRef={actionRef}
        columns={columns}
        request={request}
        search={false}
        scroll={{ x: 1300 }}
        pagination={{ defaultPageSize: 10, showSizeChanger: true }}
        toolBarRender={() => [
          <Permission key="add" code={BILLING_PERMISSIONS.discountPlanEdit}>
            <GuardedButton type="primary" icon={<PlusOutlined />} onClick={() => setEditing({})}>
              {t('billing.add')}
            </GuardedButton>
          </Permission>,
          <ExportButton
            key="export"
            permission={BILLING_PERMISSIONS.discountPlanExport}
            run={(lang) => billingApi.exportDiscountPlans(lang)}
          />,
        ]}
      />
      {editing && (
        <DiscountPlanFormModal
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
