import { Migration } from '@mikro-orm/migrations';

/**
 * Money columns become 64-bit: amounts up to MAX_AMOUNT_CENTS (10^13 cents) fit. They were `int`
 * (32-bit), so anything over 21,474,836.47 failed to be stored. SQLite's integers are 64-bit already.
 * Row-level security is untouched (it reads only user_id).
 */
export class Migration20261127021900_bigint_money extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "transaction" alter column "amount" type bigint using ("amount"::bigint);`);
    this.addSql(`alter table "budget" alter column "amount" type bigint using ("amount"::bigint);`);
    this.addSql(`alter table "line_item" alter column "amount" type bigint using ("amount"::bigint);`);
    this.addSql(`alter table "account" alter column "balance" type bigint using ("balance"::bigint);`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "transaction" alter column "amount" type int using ("amount"::int);`);
    this.addSql(`alter table "budget" alter column "amount" type int using ("amount"::int);`);
    this.addSql(`alter table "line_item" alter column "amount" type int using ("amount"::int);`);
    this.addSql(`alter table "account" alter column "balance" type int using ("balance"::int);`);
  }
}
