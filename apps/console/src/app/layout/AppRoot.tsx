import { useEffect } from 'react';
import { Outlet } from 'react-router-dom';
import { useSystemTitle } from '../platform/PlatformSettingsContext';
import { RequestRuntimeBinder } from '../providers/RequestRuntimeBinder';

/** The root route: connects the request layer to the router, keeps the tab title translated, renders the page. */
export function AppRoot() {
  const title = useSystemTitle();
  useEffect(() => {
    document.title = title;
  }, [title]);
  return (
    <>
      <RequestRuntimeBinder />
      <Outlet />
    </>
  );
}
