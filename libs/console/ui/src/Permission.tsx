import { createContext, useContext, useMemo, type ReactNode } from 'react';

/** The resource codes (menus and buttons) the signed-in user holds. */
export type PermissionSet = ReadonlySet<string>;

const PermissionContext = createContext<PermissionSet>(new Set());

export type PermissionProviderProps = { permissions: Iterable<string>; children: ReactNode };

export function PermissionProvider({ permissions, children }: PermissionProviderProps) {
  const value = useMemo(() => new Set(permissions), [permissions]);
  return <PermissionContext.Provider value={value}>{children}</PermissionContext.Provider>;
}

/** Every code the user holds. */
export function usePermissions(): PermissionSet {
  return useContext(PermissionContext);
}

/** True when the user holds the code (every code, for a list). The server checks again. */
export function usePermission(code: string | readonly string[]): boolean {
  const permissions = usePermissions();
  return hasPermission(permissions, code);
}

export function hasPermission(permissions: PermissionSet, code: string | readonly string[]): boolean {
  const codes = typeof code === 'string' ? [code] : code;
  return codes.every((one) => permissions.has(one));
}

export type PermissionProps = {
  /** A resource code such as `sys:log:operation`; a list needs every code. */
  code: string | readonly string[];
  children: ReactNode;
  /** Rendered without the permission; nothing by default (the button is hidden). */
  fallback?: ReactNode;
};

/** Renders its children only for a user holding `code` (button-level checks). */
export function Permission({ code, children, fallback = null }: PermissionProps) {
  return <>{usePermission(code) ? children : fallback}</>;
}
