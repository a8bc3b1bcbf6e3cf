import type { CurrentUserInfo, ResourceNode } from '@voltdepot/console-api-client';
import { createContext, useContext } from 'react';

export type CurrentUser = {
  user: CurrentUserInfo;
  /** The user's visible menu resources (`/authority/users/currentuser/menus`). */
  menus: ResourceNode[];
};

export const CurrentUserContext = createContext<CurrentUser | null>(null);

/** The signed-in user; only inside the session gate. */
export function useCurrentUser(): CurrentUser {
  const value = useContext(CurrentUserContext);
  if (!value) throw new Error('useCurrentUser is used outside the session gate');
  return value;
}
