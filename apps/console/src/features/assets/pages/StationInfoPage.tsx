import { useQuery } from '@tanstack/react-query';
import { Card, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { assetApi } from '../api/assetApi';
import { StationFormCard } from '../components/StationForm';
import { assetsQueryKeys } from '../queryKeys';
import { PermissionGate } from './PermissionGate';

/**
 * Station information maintenance (/station/stationInfoManage/components/addForm): a new station, or
 * `?id=` to edit one. After a new station is saved the page edits it, so pictures can be added.
 */
export function StationInfoPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const id = Number(params.get('id'));
  const editing = Number.isInteger(id) && id > 0;
  const query = useQuery({
    queryKey: assetsQueryKeys.row('station', editing ? id : 0),
    queryFn: ({ signal }) => assetApi.get('station', id, signal),
    enabled: editing,
  });
  return (
    <PermissionGate code="basic:station">
      <Card
        title={t(editing ? 'assets.common.editTitle' : 'assets.common.addTitle', {
          name: t('assets.noun.station'),
        })}
      >
        {editing && query.isLoading ? (
          <Skeleton active />
        ) : (
          <StationFormCard
            row={editing ? query.data : undefined}
            onSaved={(saved) => {
              if (!editing) setParams({ id: String(saved.id) });
              else void query.refetch();
            }}
          />
        )}
      </Card>
    </PermissionGate>
  );
}
