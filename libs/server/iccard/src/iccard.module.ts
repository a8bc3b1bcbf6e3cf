import { type DynamicModule, Module, type Type } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CardActionsService } from './card-actions.service';
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
};

/**
 * The IC-card area's HTTP side: companies, customers, cards, card actions and group allocations, on the
 * ledger the app gives it (its accounts and postings). Needs the app's TypeORM `DataSource`.
 */
@Module({})
export class IcCardModule {
  static forRoot(options: IcCardModuleOptions): DynamicModule {
    return {
      module: IcCardModule,
      imports: [options.ledger.module],
      controllers: [IcCardController, IcCardQueryController],
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
        {
          provide: IcCardService,
          inject: [IcCardRepository, ICCARD_LEDGER, ICCARD_DATA_SCOPE],
          useFactory: (r: IcCardRepository, ledger: IcCardLedger, scopes: IcCardDataScopeProvider) =>
            new IcCardService(r, ledger, scopes),
        },
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
        {
          provide: CardActionsService,
          inject: [IcCardRepository, ICCARD_LEDGER, ICCARD_DATA_SCOPE],
          useFactory: (r: IcCardRepository, ledger: IcCardLedger, scopes: IcCardDataScopeProvider) =>
            new CardActionsService(r, ledger, scopes),
        },
      ],
    };
  }
}
