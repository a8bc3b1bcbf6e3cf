import { Navigate, type RouteObject } from 'react-router-dom';
import { AppRoot } from '../layout/AppRoot';
import { BlankLayout } from '../layout/BlankLayout';
import { MainLayout } from '../layout/MainLayout';
import { PageLoading } from '../layout/PageLoading';
import { featureRoutes } from './featureRoutes';
import { knownRoutes, type FeatureRoutes, type KnownRoute, type KnownPath } from './knownRoutes';
import { NotFoundPage } from './NotFoundPage';
import { RouteErrorBoundary } from './RouteErrorBoundary';

export const HOME_PATH = '/home';

/** The known routes some feature provides, in table order. */
export function builtRoutes(features: FeatureRoutes = featureRoutes): KnownRoute[] {
  return knownRoutes.filter((route) => features[route.path as KnownPath] !== undefined);
}

/** The route objects of the console: known routes that exist, each in its layout, and a 404 for the rest. */
export function buildRoutes(features: FeatureRoutes = featureRoutes): RouteObject[] {
  const built = builtRoutes(features);
  const inLayout = (layout: KnownRoute['layout']): RouteObject[] =>
    built
      .filter((route) => route.layout === layout)
      .map((route) => ({ path: route.path, lazy: features[route.path as KnownPath] }));

  return [
    {
      path: '/',
      element: <AppRoot />,
      errorElement: <RouteErrorBoundary />,
      HydrateFallback: PageLoading,
      children: [
        { index: true, element: <Navigate to={HOME_PATH} replace /> },
        {
          element: <BlankLayout />,
          // A pathless route with only an error element keeps the layout around a failing page.
          children: [{ errorElement: <RouteErrorBoundary />, children: inLayout('blank') }],
        },
        {
          element: <MainLayout menuRoutes={built.filter((route) => route.menu)} />,
          children: [
            {
              errorElement: <RouteErrorBoundary />,
              children: [...inLayout('main'), { path: '*', element: <NotFoundPage /> }],
            },
          ],
        },
      ],
    },
  ];
}
