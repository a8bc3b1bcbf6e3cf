import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, useNavigate, useRouteError } from 'react-router-dom';
import { classifyLoadFailure, type LoadFailureKind } from './loadChunk';
import { NotFoundPage } from './NotFoundPage';

const failureTitle = {
  script: 'chunk.loadError',
  style: 'chunk.cssLoadError',
  'module-not-found': 'chunk.moduleNotFound',
} as const satisfies Record<LoadFailureKind, string>;

export type RouteErrorBoundaryProps = { reload?: () => void };

/** Error element of the routes: a failed lazy chunk offers a reload; anything else a way home. */
export function RouteErrorBoundary({ reload = () => window.location.reload() }: RouteErrorBoundaryProps) {
  const error = useRouteError();
  const { t } = useTranslation();
  const navigate = useNavigate();

  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;

  const failure = classifyLoadFailure(error);
  if (failure) {
    return (
      <Result
        status="warning"
        title={t(failureTitle[failure])}
        subTitle={t('chunk.hint')}
        extra={
          <Button type="primary" onClick={reload}>
            {t('chunk.reload')}
          </Button>
        }
      />
    );
  }

  return (
    <Result
      status="error"
      title={t('error.title')}
      subTitle={error instanceof Error ? error.message : undefined}
      extra={
        <Button type="primary" onClick={() => void navigate('/home')}>
          {t('error.backHome')}
        </Button>
      }
    />
  );
}
