import type { ProColumns } from '@ant-design/pro-components';
import type { MsgGroupDto } from '@voltdepot/shared-contracts';
import { Card, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GridPage } from '../../../app/grid/GridPage';
import { msgApi } from '../api/msgApi';
import { GroupDialog } from '../components/GroupDialog';
import { msgGridProps, msgRowActions, useMsgGrid } from '../components/msgGrid';
import { useDictionaries, type MsgDictCode } from '../hooks/useDictionaries';
import { useReceivers } from '../hooks/useMsgLists';
import { MSG_PERMISSIONS } from '../permissions';
import { timeColumnTitle } from '../../../app/grid/columns';

const DICTS: MsgDictCode[] = ['group_type'];
const P = MSG_PERMISSIONS.group;

/** Receiver groups: by role or by user (GET receiver/role, receiver/user), or none. */
export function GroupPage() {
  const { t } = useTranslation();
  const grid = useMsgGrid<MsgGroupDto>('group', msgApi.groups.page);
  const dict = useDictionaries(DICTS);
  const roles = useReceivers('role');
  const users = useReceivers('user');
  const [dialog, setDialog] = useState<{ row?: MsgGroupDto } | null>(null);

  const columns = useMemo<ProColumns<MsgGroupDto>[]>(() => {
    const names: Record<MsgGroupDto['type'], Map<number, string>> = {
      ROLE: new Map((roles.data ?? []).map((r) => [r.id, r.name])),
      USER: new Map((users.data ?? []).map((u) => [u.id, u.name])),
      NONE: new Map(),
    };
    return [
      { title: t('messages.group.name'), dataIndex: 'name', width: 180 },
      {
        title: t('messages.group.type'),
        dataIndex: 'type',
        valueType: 'select',
        width: 110,
        fieldProps: { options: dict.options.group_type },
        render: (_dom, row) => dict.label('group_type', row.type),
      },
      {
        title: t('messages.group.members'),
        dataIndex: 'memberIds',
        search: false,
        width: 240,
        render: (_dom, row) =>
          row.type === 'NONE'
            ? '-'
            : row.memberIds.map((id) => <Tag key={id}>{names[row.type].get(id) ?? `#${id}`}</Tag>),
      },
      {
        title: t('messages.group.description'),
        dataIndex: 'description',
        search: false,
        ellipsis: true,
        width: 200,
      },
      { title: t('messages.common.lastOperator'), dataIndex: 'username', search: false, width: 120 },
      {
        title: timeColumnTitle(t('messages.common.updateTime')),
        dataIndex: 'updateTime',
        search: false,
        width: 170,
      },
    ];
  }, [t, dict, roles.data, users.data]);

  return (
    <Card title={t('messages.group.title')} data-testid="msg-group-page">
      <GridPage<MsgGroupDto>
        grid={grid}
        {...msgGridProps({ permission: P.add, onClick: () => setDialog({}) })}
        columns={columns}
        rowActions={msgRowActions<MsgGroupDto>({
          permissions: P,
          edit: (row) => setDialog({ row }),
          remove: (row) => msgApi.groups.remove(row.id),
          confirmDelete: t('messages.group.confirmDelete'),
        })}
      />
      {dialog && (
        <GroupDialog
          group={dialog.row}
          typeOptions={dict.options.group_type}
          roles={roles.data ?? []}
          users={users.data ?? []}
          onClose={() => setDialog(null)}
          onSaved={grid.reload}
        />
      )}
    </Card>
  );
}
