import { SearchOutlined } from '@ant-design/icons';
import type { ProTableProps } from '@ant-design/pro-components';
import { GuardedButton } from '@voltdepot/console-ui';
import type { TFunction } from 'i18next';
import { ADMIN_PAGE_SIZE } from '../api/adminApi';

type SharedProps = 'rowKey' | 'options' | 'cardBordered' | 'pagination' | 'search';

/**
 * What the paged admin grids (users, roles) have in common: rows by id, fixed page size with the total,
 * and a search form that stays open, whose query button is guarded against double submits.
 */
export function adminGridProps<T extends Record<string, unknown>>(
  t: TFunction,
  queryTestId?: string,
): Pick<ProTableProps<T, Record<string, unknown>>, SharedProps> {
  return {
    rowKey: 'id',
    options: false,
    cardBordered: true,
    pagination: {
      pageSize: ADMIN_PAGE_SIZE,
      showSizeChanger: false,
      showTotal: (total) => t('common.total', { total }),
    },
    search: {
      labelWidth: 'auto',
      defaultCollapsed: false,
      collapseRender: false,
      optionRender: (config, _props, dom) => [
        <GuardedButton
          key="query"
          type="primary"
          icon={<SearchOutlined />}
          data-testid={queryTestId}
          onClick={() => config.form?.submit()}
        >
          {t('admin.common.query')}
        </GuardedButton>,
        dom[0],
      ],
    },
  };
}
