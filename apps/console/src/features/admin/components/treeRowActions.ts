import type { TFunction } from 'i18next';
import type { RowAction } from '../../../app/grid/GridPage';

/** The actions of a node of the administration trees (organisations, resources, dictionaries). */
export function treeRowActions<T>(
  t: TFunction,
  options: {
    /** The row's data-testid; the actions' are `<it>-add`, `-edit` and `-delete`. */
    rowTestId: (node: T) => string;
    permissions: { add: string; edit: string; delete: string };
    addChild: (node: T) => void;
    canAddChild?: (node: T) => boolean;
    edit: (node: T) => void;
    remove: (node: T) => Promise<unknown>;
    confirmDelete: (node: T) => string;
    canDelete?: (node: T) => boolean;
  },
): RowAction<T>[] {
  const { rowTestId, permissions } = options;
  return [
    {
      key: 'addChild',
      label: t('admin.common.addChild'),
      permission: permissions.add,
      visible: options.canAddChild,
      testId: (node) => `${rowTestId(node)}-add`,
      onClick: options.addChild,
    },
    {
      key: 'edit',
      permission: permissions.edit,
      testId: (node) => `${rowTestId(node)}-edit`,
      onClick: options.edit,
    },
    {
      key: 'delete',
      permission: permissions.delete,
      visible: options.canDelete,
      testId: (node) => `${rowTestId(node)}-delete`,
      confirm: options.confirmDelete,
      onClick: options.remove,
    },
  ];
}
