import type { OcppHandler } from '../../../router/ocpp-handler';
import type { IdTagCache } from '../../../authorization/id-tag.cache';
import type { IdTagRepository } from '../../../authorization/id-tag.repository';

export type AuthorizationHandlerDeps = { idTags: IdTagCache; idTagRepository: IdTagRepository };

/** Authorize: from the cached id-tag read model; a tag already in an open transaction gets ConcurrentTx. */
export function authorizeHandler(deps: AuthorizationHandlerDeps): OcppHandler<'Authorize'> {
  return async (req) => ({
    idTagInfo: await deps.idTags.authorize(req.idTag, () =>
      deps.idTagRepository.hasOpenTransaction(req.idTag),
    ),
  });
}
