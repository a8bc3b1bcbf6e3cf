import { usePermission } from '@voltdepot/console-ui';
import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { AssetGridPage } from '../components/AssetGridPage';
import { UnknownPilesTable } from '../components/UnknownPilesTable';
import { hostGrid } from '../grids/hostGrid';
import { HOST_BUTTONS } from '../permissions';
import { PermissionGate } from './PermissionGate';

/**
 * Charger management (/basic/host and the spec's /station/ChargEquipManage/index): the hosts, and the
 * piles the gateway turned away, each registered with one click.
 */
export function HostPage() {
  const { t } = useTranslation();
  const canSeeUnknown = usePermission(HOST_BUTTONS.unknown);
  return (
    <PermissionGate code="basic:host">
      <Tabs
        destroyOnHidden
        items={[
          { key: 'hosts', label: t('assets.title.host'), children: <AssetGridPage config={hostGrid} /> },
          ...(canSeeUnknown
            ? [{ key: 'unknown', label: t('assets.unknown.title'), children: <UnknownPilesTable /> }]
            : []),
        ]}
      />
    </PermissionGate>
  );
}
