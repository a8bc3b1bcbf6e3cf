import { Controller, Get, HttpCode, Inject, Post, Put } from '@nestjs/common';
import {
  ApiDoc,
  type AuthPrincipal,
  CurrentPrincipal,
  gridPageParamsSchema,
  type GridPageParams,
  serialIdParamsSchema,
  RequirePermissions,
  ZodBody,
  ZodParams,
  ZodQuery,
} from '@voltdepot/server-core';
import { CardActionsService } from './card-actions.service';
import {
  actionQuerySchema,
  cardActionParamsSchema,
  cardActionSchema,
  cardQuerySchema,
  companyQuerySchema,
  createCardSchema,
  customerQuerySchema,
  groupTransferParamsSchema,
  groupTransferResultSchema,
  groupTransferSchema,
  icCardActionPageSchema,
  icCardActionResultSchema,
  icCardPageSchema,
  icCardViewSchema,
  icCompanyPageSchema,
  icCompanyViewSchema,
  icCustomerPageSchema,
  icCustomerViewSchema,
  saveCompanySchema,
  saveCustomerSchema,
  type ActionQuery,
  type CardActionDto,
  type CardActionParams,
  type CardQuery,
  type CompanyQuery,
  type CreateCardDto,
  type CustomerQuery,
  type GroupTransferDto,
  type GroupTransferParams,
  type SaveCompanyDto,
  type SaveCustomerDto,
} from './dto/iccard.dto';
import { IcCardService } from './iccard.service';

/** The buttons that open the area's routes (seeded by the IC-card migration). */
export const ICCARD_PERMISSIONS = {
  customerQuery: 'iccard:customer:query',
  customerEdit: 'iccard:customer:edit',
  cardQuery: 'iccard:cardManage:query',
  cardAdd: 'iccard:cardManage:add',
  cardOperate: 'iccard:cardManage:operate',
  recordQuery: 'iccard:recharge:query',
  groupAllocate: 'iccard:groupAccount:allocate',
} as const;

const idParamsSchema = serialIdParamsSchema;

/**
 * The IC-card area's routes (docs/ic-cards.md, API): grids of companies, customers, cards and card
 * action records by data scope; companies and customers saved; cards registered and operated; a group's
 * balance allocated to its users and taken back. Amounts are sent in yuan (at most two decimals) and
 * answered in fen.
 */
@Controller('api/iccard')
export class IcCardController {
  constructor(
    @Inject(IcCardService) private readonly service: IcCardService,
    @Inject(CardActionsService) private readonly actions: CardActionsService,
  ) {}

  @ApiDoc({ response: icCompanyPageSchema })
  @Get('company/page/:page/size/:size')
  @RequirePermissions(ICCARD_PERMISSIONS.customerQuery)
  companyPage(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(gridPageParamsSchema) p: GridPageParams,
    @ZodQuery(companyQuerySchema) q: CompanyQuery,
  ) {
    return this.service.companyPage(me.userId, q, p.page, p.size);
  }

  @ApiDoc({ summary: 'Add a company', response: icCompanyViewSchema, errors: [409, 422] })
  @Post('company')
  @RequirePermissions(ICCARD_PERMISSIONS.customerEdit)
  createCompany(@CurrentPrincipal() me: AuthPrincipal, @ZodBody(saveCompanySchema) dto: SaveCompanyDto) {
    return this.service.saveCompany(me.userId, undefined, dto);
  }

  @ApiDoc({ summary: 'Modify a company', response: icCompanyViewSchema, errors: [404, 409, 422] })
  @Put('company/:id')
  @RequirePermissions(ICCARD_PERMISSIONS.customerEdit)
  updateCompany(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(idParamsSchema) { id }: { id: number },
    @ZodBody(saveCompanySchema) dto: SaveCompanyDto,
  ) {
    return this.service.saveCompany(me.userId, id, dto);
  }

  @ApiDoc({ response: icCustomerPageSchema })
  @Get('customer/page/:page/size/:size')
  @RequirePermissions(ICCARD_PERMISSIONS.customerQuery)
  customerPage(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(gridPageParamsSchema) p: GridPageParams,
    @ZodQuery(customerQuerySchema) q: CustomerQuery,
  ) {
    return this.service.customerPage(me.userId, q, p.page, p.size);
  }

  @ApiDoc({
    summary: 'Add a customer and open its account',
    response: icCustomerViewSchema,
    errors: [404, 422],
  })
  @Post('customer')
  @RequirePermissions(ICCARD_PERMISSIONS.customerEdit)
  createCustomer(@CurrentPrincipal() me: AuthPrincipal, @ZodBody(saveCustomerSchema) dto: SaveCustomerDto) {
    return this.service.saveCustomer(me.userId, undefined, dto);
  }

  @ApiDoc({ summary: 'Modify a customer', response: icCustomerViewSchema, errors: [404, 422] })
  @Put('customer/:id')
  @RequirePermissions(ICCARD_PERMISSIONS.customerEdit)
  updateCustomer(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(idParamsSchema) { id }: { id: number },
    @ZodBody(saveCustomerSchema) dto: SaveCustomerDto,
  ) {
    return this.service.saveCustomer(me.userId, id, dto);
  }

  @ApiDoc({ response: icCardPageSchema })
  @Get('card/page/:page/size/:size')
  @RequirePermissions(ICCARD_PERMISSIONS.cardQuery)
  cardPage(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(gridPageParamsSchema) p: GridPageParams,
    @ZodQuery(cardQuerySchema) q: CardQuery,
  ) {
    return this.service.cardPage(me.userId, q, p.page, p.size);
  }

  @ApiDoc({ summary: 'Register a card (not made yet)', response: icCardViewSchema, errors: [404, 409] })
  @Post('card')
  @RequirePermissions(ICCARD_PERMISSIONS.cardAdd)
  createCard(@CurrentPrincipal() me: AuthPrincipal, @ZodBody(createCardSchema) dto: CreateCardDto) {
    return this.service.createCard(me.userId, dto);
  }

  @ApiDoc({ response: icCardActionPageSchema })
  @Get('action/page/:page/size/:size')
  @RequirePermissions(ICCARD_PERMISSIONS.recordQuery)
  actionPage(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(gridPageParamsSchema) p: GridPageParams,
    @ZodQuery(actionQuerySchema) q: ActionQuery,
  ) {
    return this.actions.actionPage(me.userId, q, p.page, p.size);
  }

  @ApiDoc({
    summary: 'A card action (make, loss, replace, swap, recharge, refund, log out), once per requestId',
    response: icCardActionResultSchema,
    errors: [404, 409, 422],
  })
  @Post('card/:cardNo/:action')
  @HttpCode(200)
  @RequirePermissions(ICCARD_PERMISSIONS.cardOperate)
  perform(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(cardActionParamsSchema) p: CardActionParams,
    @ZodBody(cardActionSchema) dto: CardActionDto,
  ) {
    return this.actions.perform(me.userId, p.cardNo, p.action, dto);
  }

  @ApiDoc({
    summary: "Allocate a group's balance to one of its users, or reclaim it, once per requestId",
    response: groupTransferResultSchema,
    errors: [404, 409, 422],
  })
  @Post('group/:id/:direction')
  @HttpCode(200)
  @RequirePermissions(ICCARD_PERMISSIONS.groupAllocate)
  transfer(
    @CurrentPrincipal() me: AuthPrincipal,
    @ZodParams(groupTransferParamsSchema) p: GroupTransferParams,
    @ZodBody(groupTransferSchema) dto: GroupTransferDto,
  ) {
    return this.actions.transfer(me.userId, p, dto);
  }
}
