import type { ResourceNode } from '@voltdepot/console-api-client';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { resourceLabel } from '../../../app/layout/menuEntries';

/** A resource's label as the side menu shows it: the translated label by code, else the stored name. */
export function useResourceLabel(): (node: Pick<ResourceNode, 'code' | 'name'>) => string {
  const { t, i18n } = useTranslation();
  // t in the dependencies: it changes with the language, and so does the label.
  return useCallback((node) => resourceLabel(node, { exists: (key) => i18n.exists(key), t }), [i18n, t]);
}
