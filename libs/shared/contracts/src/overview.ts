/**
 * The home page's figures of the day (GET /api/overview/today): callable with the home page's own
 * resource, each figure limited to the caller's data scope.
 */
export const HOME_PERMISSION = 'home';
