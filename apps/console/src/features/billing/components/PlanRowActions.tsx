import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { App, Popconfirm, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * Edit and delete links of a plan row (price and discount plans). Delete asks first; when the server
 * refuses (e.g. the plan is in use) the request layer has shown why and nothing is reloaded.
 */
export function PlanRowActions({
  confirmDelete,
  onEdit,
  remove,
  onDeleted,
}: {
  /** The question the delete confirmation asks, naming the plan. */
  confirmDelete: string;
  onEdit: () => void;
  remove: () => Promise<unknown>;
  /** After a successful delete: invalidate the list's queries and reload the table. */
  onDeleted: () => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <>
      <Typography.Link onClick={onEdit}>
        <EditOutlined /> {t('billing.edit')}
      </Typography.Link>
      <Popconfirm
        title={confirmDelete}
        onConfirm={async () => {
          try {
            await remove();
          } catch {
            return;
          }
          void message.success(t('billing.deleted'));
          await onDeleted();
        }}
      >
        <Typography.Link type="danger" style={{ marginLeft: 12 }}>
          <DeleteOutlined /> {t('billing.delete')}
        </Typography.Link>
      </Popconfirm>
    </>
  );
}
