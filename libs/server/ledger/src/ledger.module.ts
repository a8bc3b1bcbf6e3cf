import { type DynamicModule, Module } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { LedgerRepository } from './ledger.repository';
import { DEFAULT_LEDGER_OPTIONS, LedgerService, type LedgerOptions } from './ledger.service';

/** The ledger's service on the app's `DataSource` (no HTTP routes yet). */
@Module({})
export class LedgerModule {
  static forRoot(options: Partial<LedgerOptions> = {}): DynamicModule {
    return {
      module: LedgerModule,
      providers: [
        {
          provide: LedgerRepository,
          useFactory: (ds: DataSource) => new LedgerRepository(ds),
          inject: [DataSource],
        },
        {
          provide: LedgerService,
          useFactory: (repository: LedgerRepository) =>
            new LedgerService(repository, { ...DEFAULT_LEDGER_OPTIONS, ...options }),
          inject: [LedgerRepository],
        },
      ],
      exports: [LedgerService],
    };
  }
}
