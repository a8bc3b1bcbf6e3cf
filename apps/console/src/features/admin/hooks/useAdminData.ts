import { useQuery } from '@tanstack/react-query';
import { usePermission } from '@voltdepot/console-ui';
import { adminApi } from '../api/adminApi';
import { ADMIN_PERMISSIONS } from '../permissions';
import { adminQueryKeys } from '../queryKeys';

/** Every role (for the user-role dialog and the role column); only for holders of sys:user:role. */
export function useAllRoles() {
  const allowed = usePermission(ADMIN_PERMISSIONS.user.role);
  return useQuery({
    queryKey: adminQueryKeys.allRoles(),
    queryFn: ({ signal }) => adminApi.allRoles(signal),
    enabled: allowed,
  });
}

/** The organisation tree the caller sees; only for holders of sys:org:query. */
export function useOrganizationTree(enabled = true) {
  const allowed = usePermission(ADMIN_PERMISSIONS.org.query);
  return useQuery({
    queryKey: adminQueryKeys.organizations(),
    queryFn: ({ signal }) => adminApi.organizationTree(signal),
    enabled: allowed && enabled,
  });
}

export function useResourceTree(enabled = true) {
  return useQuery({
    queryKey: adminQueryKeys.resources(),
    queryFn: ({ signal }) => adminApi.resourceTree(signal),
    enabled,
  });
}

/** The enabled items of a dictionary type (options of an enumeration). */
export function useDictItems(code: string) {
  return useQuery({
    queryKey: adminQueryKeys.dictType(code),
    queryFn: ({ signal }) => adminApi.dictItems(code, signal),
    staleTime: 5 * 60_000,
  });
}
