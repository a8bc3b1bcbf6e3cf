export * from './iccard.module';
export * from './iccard.exception';
export * from './iccard-data-scope';
export * from './iccard.controller';
export * from './iccard.service';
export * from './card-actions.service';
export * from './dto/iccard.dto';
export * from './iccard-ledger';
