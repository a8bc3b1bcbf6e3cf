import type { ProColumns } from '@ant-design/pro-components';
import { apiPath, type LoginLogView, type OperationLogView } from '@voltdepot/console-api-client';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { GridPage, type GridButton } from '../../../app/grid/GridPage';
import { request } from '../../../request';
import { loginLogColumns, operationLogColumns } from '../columns';
import { useLogGrid } from '../hooks/useLogGrid';
import { LOG_PERMISSIONS } from '../permissions';
import type { LogKind } from '../queryKeys';

type LogRow = OperationLogView | LoginLogView;

/** What differs between the two logs: their columns (and filters), and the operation log's export. */
const LOGS: Record<LogKind, { columns: (t: TFunction) => ProColumns<LogRow>[]; buttons: GridButton[] }> = {
  operation: {
    columns: (t) => operationLogColumns(t) as ProColumns<LogRow>[],
    buttons: [
      {
        key: 'export',
        permission: LOG_PERMISSIONS.operation,
        testId: 'log-export',
        onClick: ({ filters, locale }) =>
          request.exportExcel(apiPath('LogsController_exportOperations'), {
            params: { ...filters, lang: locale },
          }),
      },
    ],
  },
  login: { columns: (t) => loginLogColumns(t) as ProColumns<LogRow>[], buttons: [] },
};

/**
 * A log's grid: the operation log searchable by period, user name, method, path and result and exported
 * as searched; the login log searchable by period, user name and result.
 */
export function LogGrid({ kind }: { kind: LogKind }) {
  const { t } = useTranslation();
  const grid = useLogGrid<LogRow>(kind);
  const columns = useMemo(() => LOGS[kind].columns(t), [kind, t]);
  return (
    <GridPage<LogRow>
      grid={grid}
      texts="logs"
      testId={`log-table-${kind}`}
      columns={columns}
      search={{ queryTestId: 'log-query', buttons: LOGS[kind].buttons }}
      scrollX={1000}
      table={{ size: 'middle' }}
    />
  );
}
