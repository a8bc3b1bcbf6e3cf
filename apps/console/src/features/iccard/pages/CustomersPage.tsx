import type { ProColumns } from '@ant-design/pro-components';
import type { IcCompanyView, IcCustomerView } from '@voltdepot/console-api-client';
import { CUSTOMER_TYPES } from '@voltdepot/shared-contracts';
import { Tabs, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { useText } from '../hooks/useText';
import { Link } from 'react-router-dom';
import { dateTimeColumn } from '../../../app/grid/columns';
import { GridPage } from '../../../app/grid/GridPage';
import { formatYuan } from '../../../app/format/money';
import { icCardApi } from '../api/icCardApi';
import { isCertificateType } from '../components/certificateTypes';
import { CompanyFormModal } from '../components/CompanyFormModal';
import { CustomerFormModal } from '../components/CustomerFormModal';
import { icCardExportButton, useIcCardGrid } from '../hooks/useIcCardGrid';
import { useIcCardOptions } from '../hooks/useIcCardOptions';
import { ICCARD_PERMISSIONS as P } from '../permissions';

/** Where a group's information is. */
export const groupInfoPath = (id: number) => `/iccard/group_basic_info?id=${id}`;

function CompaniesGrid() {
  const { t } = useText();
  const [editing, setEditing] = useState<IcCompanyView | 'new'>();
  const grid = useIcCardGrid<IcCompanyView>('companies', icCardApi.companies, {
    filters: ['number', 'name'],
  });
  const columns = useMemo<ProColumns<IcCompanyView>[]>(
    () => [
      { title: t('iccard.company.number'), dataIndex: 'number', width: 140 },
      { title: t('iccard.company.name'), dataIndex: 'name', width: 200 },
      { title: t('iccard.company.contacts'), dataIndex: 'contacts', width: 140, search: false },
      {
        title: t('iccard.company.contactInformation'),
        dataIndex: 'contactInformation',
        width: 180,
        search: false,
      },
      dateTimeColumn<IcCompanyView>(t('iccard.card.updatedAt'), 'updatedAt'),
    ],
    [t],
  );
  return (
    <>
      <GridPage<IcCompanyView>
        grid={grid}
        testId="iccard-companies"
        texts="iccard"
        sequence
        columns={columns}
        search={{
          queryTestId: 'company-query',
          buttons: [
            {
              key: 'add',
              permission: P.customerEdit,
              testId: 'company-add',
              onClick: () => setEditing('new'),
            },
            icCardExportButton('company', P.customerQuery, 'company-export'),
          ],
        }}
        rowActions={[
          {
            key: 'edit',
            permission: P.customerEdit,
            testId: (row) => `company-edit-${row.id}`,
            onClick: (row) => setEditing(row),
          },
        ]}
      />
      {editing && (
        <CompanyFormModal
          company={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(undefined)}
        />
      )}
    </>
  );
}

function CustomersGrid() {
  const { t } = useText();
  const companies = useIcCardOptions('companies');
  const [editing, setEditing] = useState<IcCustomerView | 'new'>();
  const grid = useIcCardGrid<IcCustomerView>('customers', icCardApi.customers, {
    filters: ['userName', 'clientType', 'companyId'],
  });
  const columns = useMemo<ProColumns<IcCustomerView>[]>(
    () => [
      { title: t('iccard.customer.userName'), dataIndex: 'userName', width: 140 },
      {
        title: t('iccard.customer.clientType'),
        dataIndex: 'clientType',
        width: 150,
        valueType: 'select',
        fieldProps: {
          options: CUSTOMER_TYPES.map((code) => ({
            value: String(code),
            label: t(`iccard.clientType.${code}`),
          })),
        },
        render: (_, row) => t(`iccard.clientType.${row.clientType}`, { defaultValue: '-' }),
      },
      {
        title: t('iccard.customer.group'),
        dataIndex: 'groupId',
        width: 130,
        search: false,
        render: (_, row) =>
          row.groupId === null ? '-' : <Link to={groupInfoPath(row.groupId)}>{row.groupId}</Link>,
      },
      {
        title: t('iccard.customer.certificateType'),
        dataIndex: 'certificateType',
        width: 110,
        search: false,
        render: (_, row) =>
          isCertificateType(row.certificateType)
            ? t(`iccard.certificate.${row.certificateType}`)
            : row.certificateType,
      },
      {
        title: t('iccard.customer.certificateNumber'),
        dataIndex: 'certificateNumber',
        width: 190,
        search: false,
      },
      { title: t('iccard.customer.customerType'), dataIndex: 'customerType', width: 120, search: false },
      {
        title: t('iccard.customer.phone'),
        dataIndex: 'phone',
        width: 130,
        search: false,
        render: (_, row) => row.phone ?? '-',
      },
      {
        title: t('iccard.customer.company'),
        dataIndex: 'companyId',
        width: 160,
        valueType: 'select',
        fieldProps: { options: companies, showSearch: true },
        render: (_, row) => row.companyName ?? '-',
      },
      {
        title: t('iccard.customer.gender'),
        dataIndex: 'gender',
        width: 80,
        search: false,
        render: (_, row) => (row.gender === null ? '-' : t(`iccard.gender.${row.gender}`)),
      },
      {
        title: t('iccard.customer.identityVerified'),
        dataIndex: 'identityVerified',
        width: 110,
        search: false,
        render: (_, row) => (
          <Tag color={row.identityVerified ? 'success' : 'default'}>
            {t(`iccard.verified.${row.identityVerified}`)}
          </Tag>
        ),
      },
      {
        title: t('iccard.customer.balance'),
        dataIndex: 'balanceFen',
        width: 130,
        search: false,
        align: 'right',
        render: (_, row) => formatYuan(row.balanceFen),
      },
      {
        title: t('iccard.customer.arrears'),
        dataIndex: 'arrearsFen',
        width: 120,
        search: false,
        align: 'right',
        render: (_, row) => formatYuan(row.arrearsFen),
      },
      dateTimeColumn<IcCustomerView>(t('iccard.card.updatedAt'), 'updatedAt'),
    ],
    [t, companies],
  );
  return (
    <>
      <GridPage<IcCustomerView>
        grid={grid}
        testId="iccard-customers"
        texts="iccard"
        sequence
        columns={columns}
        scrollX={1900}
        search={{
          queryTestId: 'customer-query',
          buttons: [
            {
              key: 'add',
              permission: P.customerEdit,
              testId: 'customer-add',
              onClick: () => setEditing('new'),
            },
            icCardExportButton('customer', P.customerQuery, 'customer-export'),
          ],
        }}
        rowActions={[
          {
            key: 'edit',
            permission: P.customerEdit,
            testId: (row) => `customer-edit-${row.id}`,
            onClick: (row) => setEditing(row),
          },
        ]}
      />
      {editing && (
        <CustomerFormModal
          customer={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(undefined)}
        />
      )}
    </>
  );
}

/** IC-card customers (/iccard/customer): the companies and the customers with their accounts. */
export function CustomersPage() {
  const { t } = useText();
  return (
    <Tabs
      destroyOnHidden
      items={[
        { key: 'companies', label: t('iccard.company.tab'), children: <CompaniesGrid /> },
        { key: 'customers', label: t('iccard.customer.tab'), children: <CustomersGrid /> },
      ]}
    />
  );
}
