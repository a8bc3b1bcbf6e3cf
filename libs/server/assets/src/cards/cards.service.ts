import { type AuthPrincipal, ValidationException } from '@voltdepot/server-core';
import { AssetsErrorCode, AssetsException } from '../assets.exception';
import type { AssetView } from '../shared/asset-definition';
import type { AssetCrudService } from '../shared/asset-crud.service';
import type { AssetRepository } from '../shared/asset.repository';
import { CARD_TRANSITIONS, type CardAction, cardTransition } from './card-actions';
import type { CardRepository } from './card.repository';
import { idTagStatusOf, type IdTagRepository } from './id-tag.repository';

/** What card actions need of the card grid's service and of the repositories (unit tests fake these). */
export type CardGrid = Pick<AssetCrudService, 'scopeOf' | 'visible' | 'translate'>;
export type CardStore = Pick<AssetRepository, 'transaction'> &
  Pick<CardRepository, 'transition'> &
  Pick<IdTagRepository, 'upsert'>;

/** Card actions; each commits with the gateway's id-tag rows (an old physical number becomes Blocked). */
export class CardsService {
  constructor(
    private readonly crud: CardGrid,
    private readonly repository: Pick<AssetRepository, 'transaction'>,
    private readonly cards: Pick<CardRepository, 'transition'>,
    private readonly idTags: Pick<IdTagRepository, 'upsert'>,
  ) {}

  async act(
    me: AuthPrincipal,
    id: number,
    action: CardAction,
    body: { physicalNumber?: string },
  ): Promise<AssetView> {
    const scope = await this.crud.scopeOf(me);
    const card = await this.crud.visible(scope, id);
    const status = String(card['status']);
    const next = cardTransition(status, action);
    if (!next.ok) {
      throw new AssetsException(AssetsErrorCode.RuleViolated, next.message, [
        { field: 'status', message: next.message },
      ]);
    }
    const transition = CARD_TRANSITIONS[action];
    const oldNumber = String(card['physicalNumber']);
    let newNumber: string | undefined;
    if (transition.newPhysicalNumber) {
      if (body.physicalNumber === undefined) {
        throw new ValidationException([
          { field: 'physicalNumber', message: 'Physical number cannot be empty' },
        ]);
      }
      if (body.physicalNumber === oldNumber) {
        const message = 'The new physical number must differ from the current one';
        throw new ValidationException([{ field: 'physicalNumber', message }]);
      }
      newNumber = body.physicalNumber;
    } else if (body.physicalNumber !== undefined) {
      const message = `Physical number is given only to replace or swap a card`;
      throw new ValidationException([{ field: 'physicalNumber', message }]);
    }
    const expiry = (card['expiryDate'] as string | null) ?? null;
    try {
      await this.repository.transaction(async (m) => {
        if (!(await this.cards.transition(m, id, status, next.to, newNumber))) {
          throw new AssetsException(
            AssetsErrorCode.Conflict,
            `Charging card ${id} was changed by someone else; reload it and try again`,
          );
        }
        if (newNumber !== undefined) await this.idTags.upsert(m, oldNumber, 'Blocked', expiry);
        await this.idTags.upsert(m, newNumber ?? oldNumber, idTagStatusOf(next.to), expiry);
      });
    } catch (error) {
      throw this.crud.translate(error, { physicalNumber: newNumber });
    }
    return this.crud.visible(scope, id);
  }
}
