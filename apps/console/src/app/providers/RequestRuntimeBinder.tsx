import { App } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { bindRequestRuntime } from '../../request';

/**
 * Gives the shared request client the router's navigate, the antd message API of this app
 * (so messages follow the theme and locale) and the current translations.
 */
export function RequestRuntimeBinder() {
  const navigate = useNavigate();
  const { message } = App.useApp();
  const { t } = useTranslation();

  useEffect(
    () =>
      bindRequestRuntime({
        navigate: (path) => void navigate(path),
        notify: {
          error: (content, seconds) => void message.error(content, seconds),
          warning: (content, seconds) => void message.warning(content, seconds),
        },
        translate: (key) => t(key),
      }),
    [navigate, message, t],
  );
  return null;
}
