import { ModalForm, ProFormText } from '@ant-design/pro-components';
import { useQueryClient } from '@tanstack/react-query';
import type { IcCompanyView } from '@voltdepot/console-api-client';
import { App } from 'antd';
import { useText } from '../hooks/useText';
import { icCardApi } from '../api/icCardApi';
import { icCardQueryKeys } from '../queryKeys';

type Values = { number: string; name: string; contacts: string; contactInformation: string };

/** Add or edit an IC-card company (§5: number, name, contacts and contact information required). */
export function CompanyFormModal({ company, onClose }: { company?: IcCompanyView; onClose: () => void }) {
  const { t } = useText();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const required = (code: string) => [
    { required: true, whitespace: true, message: t(`iccard.message.${code}`) },
  ];

  const submit = async (values: Values) => {
    try {
      await icCardApi.saveCompany(company?.id, {
        number: values.number.trim(),
        name: values.name.trim(),
        contacts: values.contacts.trim(),
        contactInformation: values.contactInformation.trim(),
      });
    } catch {
      return false; // the request layer showed the api's message
    }
    void message.success(t('iccard.saved'));
    await queryClient.invalidateQueries({ queryKey: icCardQueryKeys.list('companies') });
    await queryClient.invalidateQueries({ queryKey: icCardQueryKeys.options('companies') });
    return true;
  };

  return (
    <ModalForm<Values>
      title={company ? t('iccard.company.edit') : t('iccard.company.add')}
      open
      width={560}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
      modalProps={{ destroyOnHidden: true, maskClosable: false }}
      initialValues={company}
      onFinish={submit}
    >
      <ProFormText
        name="number"
        label={t('iccard.company.number')}
        fieldProps={{ maxLength: 32 }}
        rules={required('companyNumberRequired')}
      />
      <ProFormText
        name="name"
        label={t('iccard.company.name')}
        fieldProps={{ maxLength: 100 }}
        rules={required('companyNameRequired')}
      />
      <ProFormText
        name="contacts"
        label={t('iccard.company.contacts')}
        fieldProps={{ maxLength: 50 }}
        rules={required('contactsRequired')}
      />
      <ProFormText
        name="contactInformation"
        label={t('iccard.company.contactInformation')}
        fieldProps={{ maxLength: 100 }}
        rules={required('contactInformationRequired')}
      />
    </ModalForm>
  );
}
