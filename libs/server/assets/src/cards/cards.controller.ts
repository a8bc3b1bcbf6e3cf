import { Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import {
  ApiDoc,
  AuthPrincipal,
  CurrentPrincipal,
  RequirePermissions,
  ZodBody,
  ZodParams,
} from '@voltdepot/server-core';
import { z } from 'zod';
import type { AssetView } from '../shared/asset-definition';
import { idParamsSchema } from '../shared/fields';
import type { CardAction } from './card-actions';
import { cardDefinition, physicalNumber } from './cards.definition';
import { CardsService } from './cards.service';
import { assetViewSchemas } from '../shared/asset-view-schema';

const cardParams = idParamsSchema;
const card = assetViewSchemas(cardDefinition).row;
/** Replace and swap name the new card's physical number; the other actions take an empty body. */
const newCardSchema = z.preprocess(
  (v) => v ?? {},
  z.object({ physicalNumber: physicalNumber.optional() }).strict(),
);
type NewCardDto = { physicalNumber?: string };

/** Charging-card actions of business-areas §4, one permission button each (basic:cardConfig:<action>). */
@ApiTags('basic: card')
@ApiBearerAuth()
@Controller('api/card/:id')
export class CardsController {
  constructor(@Inject(CardsService) private readonly cards: CardsService) {}

  private act(me: AuthPrincipal, id: number, action: CardAction, dto: NewCardDto): Promise<AssetView> {
    return this.cards.act(me, id, action, dto);
  }

  @ApiDoc({ response: card, errors: [404, 409, 422] })
  @Post('make')
  @HttpCode(200)
  @RequirePermissions('basic:cardConfig:make')
  make(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(cardParams) p: { id: number },
    @ZodBody(newCardSchema) dto: NewCardDto,
  ) {
    return this.act(me, p.id, 'make', dto);
  }

  @ApiDoc({ response: card, errors: [404, 409, 422] })
  @Post('reportLoss')
  @HttpCode(200)
  @RequirePermissions('basic:cardConfig:reportLoss')
  reportLoss(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(cardParams) p: { id: number },
    @ZodBody(newCardSchema) dto: NewCardDto,
  ) {
    return this.act(me, p.id, 'reportLoss', dto);
  }

  @ApiDoc({ response: card, errors: [404, 409, 422] })
  @Post('releaseLoss')
  @HttpCode(200)
  @RequirePermissions('basic:cardConfig:releaseLoss')
  releaseLoss(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(cardParams) p: { id: number },
    @ZodBody(newCardSchema) dto: NewCardDto,
  ) {
    return this.act(me, p.id, 'releaseLoss', dto);
  }

  @ApiDoc({ response: card, errors: [404, 409, 422] })
  @Post('replace')
  @HttpCode(200)
  @RequirePermissions('basic:cardConfig:replace')
  replace(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(cardParams) p: { id: number },
    @ZodBody(newCardSchema) dto: NewCardDto,
  ) {
    return this.act(me, p.id, 'replace', dto);
  }

  @ApiDoc({ response: card, errors: [404, 409, 422] })
  @Post('swap')
  @HttpCode(200)
  @RequirePermissions('basic:cardConfig:swap')
  swap(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(cardParams) p: { id: number },
    @ZodBody(newCardSchema) dto: NewCardDto,
  ) {
    return this.act(me, p.id, 'swap', dto);
  }

  @ApiDoc({ response: card, errors: [404, 409, 422] })
  @Post('logout')
  @HttpCode(200)
  @RequirePermissions('basic:cardConfig:logout')
  logout(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(cardParams) p: { id: number },
    @ZodBody(newCardSchema) dto: NewCardDto,
  ) {
    return this.act(me, p.id, 'logout', dto);
  }
}
