import { type DynamicModule, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { OUTBOX_RELAY, type OutboxRelay } from '@voltdepot/server-messaging';
import { CardAuthorisationWriter } from './authorisation/card-authorisation.writer';
import { LedgerRepository } from './ledger.repository';
import { DEFAULT_LEDGER_OPTIONS, LedgerService, type LedgerOptions } from './ledger.service';

/**
 * The ledger's service on the app's `DataSource` (no HTTP routes yet). Its postings announce cards
 * blocked or unblocked through the outbox: the process runs MessagingModule (and so its relay, nudged
 * after such a commit).
 */
@Module({})
export class LedgerModule {
  static forRoot(options: Partial<LedgerOptions> = {}): DynamicModule {
    const settings = { ...DEFAULT_LEDGER_OPTIONS, ...options };
    return {
      module: LedgerModule,
      providers: [
        {
          provide: LedgerRepository,
          useFactory: (ds: DataSource, relay?: Pick<OutboxRelay, 'nudge'>) =>
            new LedgerRepository(ds, new CardAuthorisationWriter(settings.minimumBalanceFen), () =>
              relay?.nudge(),
            ),
          inject: [DataSource, { token: OUTBOX_RELAY, optional: true }],
        },
        {
          provide: LedgerService,
          useFactory: (repository: LedgerRepository) => new LedgerService(repository, settings),
          inject: [LedgerRepository],
        },
      ],
      exports: [LedgerService],
    };
  }
}
