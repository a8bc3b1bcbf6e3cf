import { hasPermission, usePermissions } from '@voltdepot/console-ui';

/** Whether the signed-in user holds this resource code (a tab or a link shown only then). */
export function useHasPermission(code: string): boolean {
  return hasPermission(usePermissions(), code);
}
