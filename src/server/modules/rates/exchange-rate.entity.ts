import { EntitySchema } from '@mikro-orm/core';
import { EntityBase, EntityBaseSchema } from '../../db/base.entity';

/**
 * One day's exchange rate, shared by every user of the instance (rates are public facts, like the
 * ECB's reference rates): one `base` is `rate` units of `quote` on `date`. The rate is decimal text,
 * exactly as published, so conversion never inherits binary floating-point error.
 */
export class ExchangeRate extends EntityBase {
  /** `YYYY-MM-DD`. */
  date!: string;
  base!: string;
  quote!: string;
  rate!: string;
}

export const ExchangeRateSchema = new EntitySchema<ExchangeRate, EntityBase>({
  class: ExchangeRate,
  extends: EntityBaseSchema,
  tableName: 'exchange_rate',
  properties: {
    date: { type: 'string', length: 10 },
    base: { type: 'string', length: 3 },
    quote: { type: 'string', length: 3 },
    rate: { type: 'string', length: 40 },
  },
  // Lookups ask for a pair's latest rates up to a day: the unique index serves them.
  uniques: [{ name: 'exchange_rate_base_quote_date_unique', properties: ['base', 'quote', 'date'] }],
  indexes: [{ name: 'exchange_rate_date_index', properties: ['date'] }],
});
