import type { ResourceNode } from '@voltdepot/console-api-client';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { menuLabelKey } from '../../../app/layout/menuEntries';

/** A resource's label as the side menu shows it: the translated menu name, else the stored name. */
export function useResourceLabel(): (node: Pick<ResourceNode, 'code' | 'name'>) => string {
  const { t, i18n } = useTranslation();
  return useCallback(
    (node) => {
      const key = menuLabelKey(node.code);
      return i18n.exists(key) ? String(t(key as never)) : node.name;
    },
    [i18n, t],
  );
}
