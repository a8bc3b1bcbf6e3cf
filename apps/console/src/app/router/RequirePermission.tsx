import { usePermission } from '@voltdepot/console-ui';
import { Outlet } from 'react-router-dom';
import { ForbiddenPage } from './ForbiddenPage';

/** Route guard of a page that needs a resource code; the server checks its calls again. */
export function RequirePermission({ code }: { code: string }) {
  return usePermission(code) ? <Outlet /> : <ForbiddenPage />;
}
