import { usePermission } from '@voltdepot/console-ui';
import type { ReactNode } from 'react';
import { ForbiddenPage } from '../../../app/router/ForbiddenPage';

/**
 * The page's menu permission, checked again inside the page: the spec's own routes
 * (/station/ChargEquipManage/index, /station/stationInfoManage/components/addForm) have no route guard.
 */
export function PermissionGate({ code, children }: { code: string; children: ReactNode }) {
  return usePermission(code) ? <>{children}</> : <ForbiddenPage />;
}
