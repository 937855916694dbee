import { Migration } from '@mikro-orm/migrations';

/**
 * An account's stated balance was its balance after all its rows; it becomes an opening balance
 * on a date, and the balance is the opening balance plus the counted rows. So every balance shown
 * before stays the same: opening balance = stated balance minus the counted rows, dated the day
 * before the account's earliest row (or the day it was created when it has none). Row-level
 * security is lifted for the backfill only, which reads every user's rows.
 */
export class Migration20261128143519_opening_balance extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "account" rename column "balance" to "opening_balance";`);
    this.addSql(`alter table "account" add column "opening_date" varchar(10) not null default '';`);
    this.addSql(`alter table "account" no force row level security;`);
    this.addSql(`alter table "transaction" no force row level security;`);
    this.addSql(`update "account" set
      "opening_balance" = "opening_balance" - coalesce((select sum(t."amount") from "transaction" t
        where t."account_id" = "account"."id" and t."is_split" = false), 0),
      "opening_date" = coalesce((select to_char(min(t."post_date")::date - 1, 'YYYY-MM-DD') from "transaction" t
        where t."account_id" = "account"."id"), substr("created_at", 1, 10));`);
    this.addSql(`alter table "account" alter column "opening_date" drop default;`);
    this.addSql(`alter table "account" force row level security;`);
    this.addSql(`alter table "transaction" force row level security;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "account" drop column "opening_date";`);
    this.addSql(`alter table "account" rename column "opening_balance" to "balance";`);
  }
}
