import { usePermissions } from '@voltdepot/console-ui';
import { useCallback } from 'react';
import { knownRoutes, type KnownRoute } from './knownRoutes';

/**
 * Whether the user may open the page at `path`: a known route whose guard (its resource code) the user
 * passes. For links to other screens, shown only where they would not end on a 403 page.
 */
export function usePageAllowed(): (path: string) => boolean {
  const permissions = usePermissions();
  return useCallback(
    (path: string) => {
      const route: KnownRoute | undefined = knownRoutes.find((r) => r.path === path);
      return route !== undefined && (route.permission === undefined || permissions.has(route.permission));
    },
    [permissions],
  );
}
