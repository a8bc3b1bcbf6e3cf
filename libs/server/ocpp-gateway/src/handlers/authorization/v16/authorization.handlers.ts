import type { OcppHandler } from '../../../router/ocpp-handler';
import type { IdTagCache } from '../../../authorization/id-tag.cache';
import type { OpenTransactions } from '../../../authorization/open-transactions';

export type AuthorizationHandlerDeps = { idTags: IdTagCache; openTransactions: OpenTransactions };

/**
 * Authorize: from the cached id-tag read model; a tag already in an open transaction gets ConcurrentTx.
 * Both answer from memory when the database is down or slow (see IdTagCache and OpenTransactions).
 */
export function authorizeHandler(deps: AuthorizationHandlerDeps): OcppHandler<'Authorize'> {
  return async (req) => ({
    idTagInfo: await deps.idTags.authorize(req.idTag, () => deps.openTransactions.has(req.idTag)),
  });
}
