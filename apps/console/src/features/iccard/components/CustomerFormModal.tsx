import {
  ModalForm,
  ProFormDependency,
  ProFormRadio,
  ProFormSelect,
  ProFormSwitch,
  ProFormText,
} from '@ant-design/pro-components';
import { useQueryClient } from '@tanstack/react-query';
import type { ApiBody, IcCustomerView } from '@voltdepot/console-api-client';
import { CUSTOMER_TYPES, type CustomerTypeCode } from '@voltdepot/shared-contracts';
import { App } from 'antd';
import { useText } from '../hooks/useText';
import { icCardApi } from '../api/icCardApi';
import { useIcCardOptions } from '../hooks/useIcCardOptions';
import { icCardQueryKeys } from '../queryKeys';
import { CERTIFICATE_TYPES } from './certificateTypes';

export type CustomerFormValues = {
  clientType: string;
  groupId?: number;
  userName: string;
  certificateType: string;
  certificateNumber: string;
  customerType: string;
  phone?: string;
  companyId?: number;
  gender?: string;
  nation?: string;
  address?: string;
  identityVerified?: boolean;
};

const blankToNull = (value: string | undefined) => (value?.trim() ? value.trim() : null);

/** What the form saves: a group only for a group external card (client type 3). */
export function customerBody(values: CustomerFormValues): ApiBody<'IcCardController_createCustomer'> {
  const clientType = Number(values.clientType) as CustomerTypeCode;
  return {
    clientType,
    groupId: clientType === 3 ? (values.groupId ?? null) : null,
    userName: values.userName.trim(),
    certificateType: values.certificateType.trim(),
    certificateNumber: values.certificateNumber.trim(),
    customerType: values.customerType.trim(),
    phone: blankToNull(values.phone),
    companyId: values.companyId ?? null,
    gender: values.gender === undefined || values.gender === '' ? null : (Number(values.gender) as 0 | 1),
    nation: blankToNull(values.nation),
    address: blankToNull(values.address),
    identityVerified: values.identityVerified === true,
  };
}

/**
 * Add or edit a customer (§5: user name, certificate type and number, customer type required): the
 * client type (1 personal, 2 group, 3 group external card, whose group is chosen), company, gender,
 * identity verified. The client type and group are fixed once the account is open.
 */
export function CustomerFormModal({ customer, onClose }: { customer?: IcCustomerView; onClose: () => void }) {
  const { t } = useText();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const companies = useIcCardOptions('companies');
  const groups = useIcCardOptions('groups');
  const required = (code: string) => [
    { required: true, whitespace: true, message: t(`iccard.message.${code}`) },
  ];

  const submit = async (values: CustomerFormValues) => {
    try {
      await icCardApi.saveCustomer(customer?.id, customerBody(values));
    } catch {
      return false; // the request layer showed the api's message
    }
    void message.success(t('iccard.saved'));
    await queryClient.invalidateQueries({ queryKey: icCardQueryKeys.all });
    return true;
  };

  return (
    <ModalForm<CustomerFormValues>
      title={customer ? t('iccard.customer.edit') : t('iccard.customer.add')}
      open
      width={720}
      grid
      rowProps={{ gutter: 16 }}
      colProps={{ span: 12 }}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
      modalProps={{ destroyOnHidden: true, maskClosable: false }}
      initialValues={
        customer
          ? {
              ...customer,
              clientType: String(customer.clientType),
              groupId: customer.groupId ?? undefined,
              companyId: customer.companyId ?? undefined,
              gender: customer.gender === null ? undefined : String(customer.gender),
              phone: customer.phone ?? undefined,
              nation: customer.nation ?? undefined,
              address: customer.address ?? undefined,
            }
          : { clientType: '1', identityVerified: false }
      }
      onFinish={submit}
    >
      <ProFormText
        name="userName"
        label={t('iccard.customer.userName')}
        fieldProps={{ maxLength: 50, 'data-testid': 'customer-userName' } as object}
        rules={required('userNameRequired')}
      />
      <ProFormSelect
        name="clientType"
        label={t('iccard.customer.clientType')}
        disabled={customer !== undefined}
        tooltip={t('iccard.customer.fixedHint')}
        options={CUSTOMER_TYPES.map((code) => ({
          value: String(code),
          label: t(`iccard.clientType.${code}`),
        }))}
        rules={[{ required: true, message: t('iccard.message.customerTypeRequired') }]}
      />
      <ProFormDependency name={['clientType']}>
        {({ clientType }) =>
          clientType === '3' ? (
            <ProFormSelect
              name="groupId"
              label={t('iccard.customer.group')}
              disabled={customer !== undefined}
              showSearch
              options={groups}
              colProps={{ span: 12 }}
              rules={[{ required: true, message: t('iccard.customer.groupRequired') }]}
            />
          ) : null
        }
      </ProFormDependency>
      <ProFormSelect
        name="certificateType"
        label={t('iccard.customer.certificateType')}
        options={CERTIFICATE_TYPES.map((code) => ({ value: code, label: t(`iccard.certificate.${code}`) }))}
        rules={[{ required: true, message: t('iccard.message.certificateTypeRequired') }]}
      />
      <ProFormText
        name="certificateNumber"
        label={t('iccard.customer.certificateNumber')}
        fieldProps={{ maxLength: 32 }}
        rules={required('certificateNumberRequired')}
      />
      <ProFormText
        name="customerType"
        label={t('iccard.customer.customerType')}
        fieldProps={{ maxLength: 20 }}
        rules={required('customerTypeRequired')}
      />
      <ProFormText name="phone" label={t('iccard.customer.phone')} fieldProps={{ maxLength: 20 }} />
      <ProFormSelect
        name="companyId"
        label={t('iccard.customer.company')}
        showSearch
        allowClear
        options={companies}
      />
      <ProFormRadio.Group
        name="gender"
        label={t('iccard.customer.gender')}
        options={['0', '1'].map((code) => ({ value: code, label: t(`iccard.gender.${code}`) }))}
      />
      <ProFormText name="nation" label={t('iccard.customer.nation')} fieldProps={{ maxLength: 20 }} />
      <ProFormSwitch name="identityVerified" label={t('iccard.customer.identityVerified')} />
      <ProFormText
        name="address"
        label={t('iccard.customer.address')}
        colProps={{ span: 24 }}
        fieldProps={{ maxLength: 200 }}
      />
    </ModalForm>
  );
}
