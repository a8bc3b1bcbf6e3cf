export { GuardedButton, type GuardedButtonProps } from './GuardedButton';
export {
  hasPermission,
  Permission,
  PermissionProvider,
  usePermission,
  usePermissions,
  type PermissionProps,
  type PermissionProviderProps,
  type PermissionSet,
} from './Permission';
export { RESIZE_THROTTLE_MS, throttle, type Throttled } from './throttle';
export { CLICK_GUARD_MS, useClickGuard } from './useClickGuard';
export { useThrottledResize, useWindowSize, type WindowSize } from './useThrottledResize';
