/** react-query keys of the session area. Cleared as a whole on sign-in and sign-out. */
export const sessionQueryKeys = {
  all: ['session'] as const,
  captcha: () => [...sessionQueryKeys.all, 'captcha'] as const,
  currentUser: () => [...sessionQueryKeys.all, 'currentUser'] as const,
  menus: () => [...sessionQueryKeys.all, 'menus'] as const,
  userExt: () => [...sessionQueryKeys.all, 'userExt'] as const,
};
