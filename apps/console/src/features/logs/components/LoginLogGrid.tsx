import type { LoginLogView } from '@voltdepot/console-api-client';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { loginLogColumns } from '../columns';
import { LogTable } from './LogTable';

/** The login log, searchable by period, user name and result. */
export function LoginLogGrid() {
  const { t } = useTranslation();
  const columns = useMemo(() => loginLogColumns(t), [t]);
  return <LogTable<LoginLogView> kind="login" columns={columns} />;
}
