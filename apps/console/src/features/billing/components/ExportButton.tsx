import { DownloadOutlined } from '@ant-design/icons';
import { GuardedButton, Permission } from '@voltdepot/console-ui';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../../app/providers/useLocale';

/** An xlsx export button behind its permission; tells the user the saved file's name. */
export function ExportButton({
  permission,
  run,
  testId,
}: {
  permission: string;
  run: (lang: string) => Promise<string | undefined>;
  testId?: string;
}) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const { message } = App.useApp();
  return (
    <Permission code={permission}>
      <GuardedButton
        icon={<DownloadOutlined />}
        data-testid={testId}
        onClick={async () => {
          const savedAs = await run(locale);
          if (savedAs) void message.success(t('billing.exported', { name: savedAs }));
        }}
      >
        {t('billing.export')}
      </GuardedButton>
    </Permission>
  );
}
