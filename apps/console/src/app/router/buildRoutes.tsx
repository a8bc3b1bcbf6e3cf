import { Navigate, type RouteObject } from 'react-router-dom';
import { AppRoot } from '../layout/AppRoot';
import { BlankLayout } from '../layout/BlankLayout';
import { MainLayout } from '../layout/MainLayout';
import { PageLoading } from '../layout/PageLoading';
import { SessionGate } from '../session/SessionGate';
import { featureRoutes } from './featureRoutes';
import { knownRoutes, type FeatureRoutes, type KnownPath, type KnownRoute } from './knownRoutes';
import { NotFoundPage } from './NotFoundPage';
import { RequirePermission } from './RequirePermission';
import { RouteErrorBoundary } from './RouteErrorBoundary';

export const HOME_PATH = '/home';

/** The known routes some feature provides, in table order. */
export function builtRoutes(features: FeatureRoutes = featureRoutes): KnownRoute[] {
  return knownRoutes.filter((route) => features[route.path as KnownPath] !== undefined);
}

/** The route objects of the console: known routes that exist, each in its layout and guards, and a 404. */
export function buildRoutes(features: FeatureRoutes = featureRoutes): RouteObject[] {
  const built = builtRoutes(features);
  const page = (route: KnownRoute): RouteObject => {
    const object: RouteObject = { path: route.path, lazy: features[route.path as KnownPath] };
    // A pathless parent per guarded page: the guard renders before the page's chunk is needed.
    return route.permission
      ? { element: <RequirePermission code={route.permission} />, children: [object] }
      : object;
  };
  const pages = (layout: KnownRoute['layout'], isPublic: boolean): RouteObject[] =>
    built.filter((route) => route.layout === layout && Boolean(route.public) === isPublic).map(page);
  // A pathless route with only an error element keeps the layout around a failing page.
  const withErrors = (children: RouteObject[]): RouteObject[] => [
    { errorElement: <RouteErrorBoundary />, children },
  ];

  return [
    {
      path: '/',
      element: <AppRoot />,
      errorElement: <RouteErrorBoundary />,
      HydrateFallback: PageLoading,
      children: [
        { index: true, element: <Navigate to={HOME_PATH} replace /> },
        { element: <BlankLayout />, children: withErrors(pages('blank', true)) },
        {
          element: <SessionGate />,
          children: [
            { element: <BlankLayout />, children: withErrors(pages('blank', false)) },
            {
              element: (
                <MainLayout
                  menuPaths={built.filter((route) => route.layout === 'main').map((route) => route.path)}
                />
              ),
              children: withErrors([...pages('main', false), { path: '*', element: <NotFoundPage /> }]),
            },
          ],
        },
      ],
    },
  ];
}
