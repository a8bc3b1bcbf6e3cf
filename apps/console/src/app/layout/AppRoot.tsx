import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router-dom';
import { RequestRuntimeBinder } from '../providers/RequestRuntimeBinder';

/** The root route: connects the request layer to the router, keeps the tab title translated, renders the page. */
export function AppRoot() {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = t('app.title');
  }, [t]);
  return (
    <>
      <RequestRuntimeBinder />
      <Outlet />
    </>
  );
}
