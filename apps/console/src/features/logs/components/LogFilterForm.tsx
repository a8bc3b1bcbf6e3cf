import { SearchOutlined } from '@ant-design/icons';
import { GuardedButton } from '@voltdepot/console-ui';
import { Form, Input, Select, Space } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { LogFilters } from '../hooks/useLogPage';

/** User name and outcome filters with the query button (and whatever buttons the grid adds). */
export function LogFilterForm({
  onSearch,
  extra,
}: {
  onSearch: (filters: LogFilters) => void;
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ username?: string; success?: 'true' | 'false' }>();
  const search = () => {
    const { username, success } = form.getFieldsValue();
    onSearch({ username: username?.trim() || undefined, success: success || undefined });
  };
  return (
    <Form form={form} layout="inline" style={{ marginBottom: 16, rowGap: 8 }}>
      <Form.Item name="username" label={t('logs.username')}>
        <Input allowClear placeholder={t('logs.usernamePlaceholder')} onPressEnter={search} />
      </Form.Item>
      <Form.Item name="success" label={t('logs.result')}>
        <Select
          allowClear
          style={{ width: 140 }}
          placeholder={t('logs.all')}
          options={[
            { value: 'true', label: t('logs.succeeded') },
            { value: 'false', label: t('logs.failed') },
          ]}
        />
      </Form.Item>
      <Space>
        <GuardedButton type="primary" icon={<SearchOutlined />} onClick={search}>
          {t('common.query')}
        </GuardedButton>
        {extra}
      </Space>
    </Form>
  );
}
