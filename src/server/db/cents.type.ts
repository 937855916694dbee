import { BigIntType, type EntityProperty, type Platform } from '@mikro-orm/core';

/**
 * The type of every money column (integer cents, up to MAX_AMOUNT_CENTS = 10^13 in
 * src/shared/limits.ts): 64-bit on both databases and a JavaScript number in the entity.
 * PostgreSQL: `bigint` (its `int` is 32-bit and stopped at 21,474,836.47). SQLite: `integer`,
 * which is 64-bit already (so its schema needs no migration). node-postgres reads int8 as text:
 * the int8 type parser in orm-options.ts makes it a number for raw SQL reads too.
 */
class CentsType extends BigIntType<'number'> {
  constructor() {
    super('number');
  }

  override getColumnType(prop: EntityProperty, platform: Platform): string {
    // Of the two platforms, PostgreSQL's is the one with schemas (its default one is `public`).
    return platform.getDefaultSchemaName() !== undefined
      ? platform.getBigIntTypeDeclarationSQL(prop)
      : platform.getIntegerTypeDeclarationSQL(prop);
  }
}

export const centsType = new CentsType();
