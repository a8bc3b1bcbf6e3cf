/** The big-screen page, its own entry of the build (screen/index.html). */
export const BIG_SCREEN_PAGE = 'screen/index.html';
/** Spec §6: the button permission on the global menu that allows the big-screen link. */
export const GO_SCREEN_PERMISSION = 'go_screen';

export type DesktopAction = { kind: 'home' } | { kind: 'screen'; url: string } | { kind: 'none' };

/** DingTalk's desktop and mobile clients name themselves in the user agent. */
export function isWorkplaceChatBrowser(userAgent: string): boolean {
  return /DingTalk/i.test(userAgent);
}

/**
 * The big-screen URL. A workplace-chat browser does not share the console's storage with the tab it
 * opens, so the URL carries the `ddtab` flag (open as a tab of the client) and the access token.
 */
export function bigScreenUrl(
  baseUrl: string,
  workplaceChat: boolean,
  accessToken: string | undefined,
): string {
  const url = `${baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`}${BIG_SCREEN_PAGE}`;
  if (!workplaceChat || !accessToken) return url;
  return `${url}?ddtab=true&token=${encodeURIComponent(accessToken)}`;
}

/**
 * Spec §2 "Desktop icon": /home when several systems are configured; otherwise the big screen in a
 * new tab when the screen setting is on and the user holds go_screen; otherwise no icon.
 */
export function desktopActionOf(input: {
  systemCount: number;
  bigScreen: boolean;
  canGoScreen: boolean;
  userAgent: string;
  accessToken: string | undefined;
  baseUrl: string;
}): DesktopAction {
  if (input.systemCount > 1) return { kind: 'home' };
  if (input.bigScreen && input.canGoScreen) {
    return {
      kind: 'screen',
      url: bigScreenUrl(input.baseUrl, isWorkplaceChatBrowser(input.userAgent), input.accessToken),
    };
  }
  return { kind: 'none' };
}
