import { type DynamicModule, Module, type Provider, type Type } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OUTBOX_RELAY, type OutboxRelay } from '@voltdepot/server-messaging';
import { CardActionsService } from './card-actions.service';
import { CardAnnouncerWriter } from './card-announcer.writer';
import { IcCardBillController } from './bills/bill.controller';
import { IcBillRepository } from './bills/bill.repository';
import { type BillTimeZone, IcBillService, ICCARD_BILL_TIME_ZONE } from './bills/bill.service';
import { ICCARD_DATA_SCOPE, type IcCardDataScopeProvider } from './iccard-data-scope';
import { ICCARD_LEDGER, type IcCardLedger } from './iccard-ledger';
import { IcCardController } from './iccard.controller';
import { IcCardRepository } from './iccard.repository';
import { IcCardService } from './iccard.service';
import { IcCardQueryController } from './queries/iccard-query.controller';
import { IcCardQueryRepository } from './queries/iccard-query.repository';
import { IcCardQueryService } from './queries/iccard-query.service';

export type IcCardModuleOptions = {
  /** The caller's data scope (identity's DataScopeService fits), built from the app's DataSource. */
  dataScope: { inject: [typeof DataSource]; useFactory: (db: DataSource) => IcCardDataScopeProvider };
  /** The ledger: the module that provides it and its token (the ledger's `LedgerModule` and `LedgerService`). */
  ledger: { module: DynamicModule; token: Type<IcCardLedger> };
  /** The business time zone of the bills' months (identity's `BusinessTimeZoneReader` fits). Default Asia/Shanghai. */
  timeZone?: { inject: [typeof DataSource]; useFactory: (db: DataSource) => BillTimeZone };
};

/**
 * The IC-card area's HTTP side: companies, customers, cards, card actions and group allocations, on the
 * ledger the app gives it (its accounts and postings). Needs the app's TypeORM `DataSource`. Card
 * registrations and status changes are announced through the outbox: the process runs MessagingModule
 * (and so its relay, nudged after such a commit).
 */
/**
 * The provider of a service that writes cards and announces them: the two (IcCardService,
 * CardActionsService) take the same dependencies, the relay nudged after an announcing commit.
 */
function announcing(
  service: new (
    r: IcCardRepository,
    ledger: IcCardLedger,
    scopes: IcCardDataScopeProvider,
    announcer: CardAnnouncerWriter,
    afterAnnounce: () => void,
  ) => unknown,
): Provider {
  return {
    provide: service,
    inject: [
      IcCardRepository,
      ICCARD_LEDGER,
      ICCARD_DATA_SCOPE,
      CardAnnouncerWriter,
      { token: OUTBOX_RELAY, optional: true },
    ],
    useFactory: (
      r: IcCardRepository,
      ledger: IcCardLedger,
      scopes: IcCardDataScopeProvider,
      announcer: CardAnnouncerWriter,
      relay?: Pick<OutboxRelay, 'nudge'>,
    ) => new service(r, ledger, scopes, announcer, () => relay?.nudge()),
  };
}

@Module({})
export class IcCardModule {
  static forRoot(options: IcCardModuleOptions): DynamicModule {
    return {
      module: IcCardModule,
      imports: [options.ledger.module],
      controllers: [IcCardController, IcCardQueryController, IcCardBillController],
      providers: [
        { provide: ICCARD_LEDGER, useExisting: options.ledger.token },
        {
          provide: ICCARD_DATA_SCOPE,
          inject: options.dataScope.inject,
          useFactory: options.dataScope.useFactory,
        },
        {
          provide: IcCardRepository,
          inject: [DataSource],
          useFactory: (ds: DataSource) => new IcCardRepository(ds),
        },
        { provide: CardAnnouncerWriter, useFactory: () => new CardAnnouncerWriter() },
        announcing(IcCardService),
        {
          provide: IcCardQueryRepository,
          inject: [DataSource],
          useFactory: (ds: DataSource) => new IcCardQueryRepository(ds),
        },
        {
          provide: IcCardQueryService,
          inject: [IcCardRepository, IcCardQueryRepository, ICCARD_DATA_SCOPE],
          useFactory: (r: IcCardRepository, q: IcCardQueryRepository, scopes: IcCardDataScopeProvider) =>
            new IcCardQueryService(r, q, scopes),
        },
        announcing(CardActionsService),
        {
          provide: ICCARD_BILL_TIME_ZONE,
          inject: options.timeZone?.inject ?? [],
          useFactory:
            options.timeZone?.useFactory ?? ((): BillTimeZone => ({ read: async () => 'Asia/Shanghai' })),
        },
        {
          provide: IcBillRepository,
          inject: [DataSource],
          useFactory: (ds: DataSource) => new IcBillRepository(ds),
        },
        {
          provide: IcBillService,
          inject: [IcBillRepository, ICCARD_DATA_SCOPE, ICCARD_BILL_TIME_ZONE],
          useFactory: (r: IcBillRepository, scopes: IcCardDataScopeProvider, zone: BillTimeZone) =>
            new IcBillService(r, scopes, zone),
        },
      ],
    };
  }
}
