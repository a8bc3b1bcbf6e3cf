import type { GridPage as PageOf } from '@voltdepot/shared-contracts';
import type { GridPageProps, RowAction } from '../../../app/grid/GridPage';
import { usePagedGrid } from '../../../app/grid/useGrid';
import type { QueryParams } from '../../../request';
import { MSG_PAGE_SIZE } from '../api/msgApi';
import { msgQueryKeys, type MsgResource } from '../queryKeys';

/** A message-centre list: `{ list, total }` pages of 10 (spec §9) of what its search form asks for. */
export function useMsgGrid<T>(
  resource: MsgResource,
  fetchPage: (page: number, size: number, filters: QueryParams, signal?: AbortSignal) => Promise<PageOf<T>>,
) {
  return usePagedGrid<T>({
    listKey: msgQueryKeys.grid(resource),
    pageKey: (page, size, filters) => msgQueryKeys.page(resource, { page, size, ...filters }),
    fetch: fetchPage,
    pageSize: MSG_PAGE_SIZE,
  });
}

/**
 * What the message-centre lists share (spec §2): their words, the sequence column, and the add button
 * next to query for users holding `add`.
 */
export function msgGridProps(add?: {
  permission: string;
  onClick: () => void;
}): Pick<GridPageProps<Record<string, unknown>>, 'texts' | 'sequence' | 'search'> {
  return {
    texts: 'messages.common',
    sequence: true,
    search: {
      queryTestId: 'msg-query',
      buttons: add ? [{ key: 'add', testId: 'msg-add', ...add }] : [],
    },
  };
}

export type MsgRowActions<T> = {
  /** The button permissions of the list (`msg:<resource>:edit`, `msg:<resource>:delete`). */
  permissions: { edit: string; delete: string };
  edit: (row: T) => void;
  /** Resolves false when msg-center deleted nothing. */
  remove: (row: T) => Promise<boolean>;
  /** The delete confirmation's text. */
  confirmDelete: string;
  /** A "view" action open to everyone who sees the list. */
  view?: (row: T) => void;
  /** Rows that cannot be deleted (e.g. templates in use). */
  deletable?: (row: T) => boolean;
};

/** The row actions of the message-centre lists: view, edit and delete, each behind its permission. */
export function msgRowActions<T>(options: MsgRowActions<T>): RowAction<T>[] {
  const { permissions, deletable } = options;
  return [
    ...(options.view ? [{ key: 'view', onClick: options.view }] : []),
    { key: 'edit', permission: permissions.edit, onClick: options.edit },
    {
      key: 'delete',
      permission: permissions.delete,
      confirm: () => options.confirmDelete,
      onClick: options.remove,
      disabled: deletable ? (row: T) => !deletable(row) : undefined,
    },
  ];
}
