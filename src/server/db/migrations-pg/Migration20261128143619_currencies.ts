import { Migration } from '@mikro-orm/migrations';

/**
 * Accounts get a currency and users a home currency. Existing accounts and users take USD, the
 * currency the app's amounts were shown in; existing users are marked as not having chosen, so their
 * first choice relabels those accounts rather than converting them.
 */
export class Migration20261128143619_currencies extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "user" add column "home_currency" varchar(3) not null default 'USD', add column "home_currency_chosen" boolean not null default true;`);
    this.addSql(`update "user" set "home_currency_chosen" = false;`);

    this.addSql(`alter table "account" add column "currency" varchar(3) not null default 'USD';`);

    this.addSql(`alter table "transaction" add column "original_amount" bigint null, add column "original_currency" varchar(3) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "account" drop column "currency";`);

    this.addSql(`alter table "transaction" drop column "original_amount", drop column "original_currency";`);

    this.addSql(`alter table "user" drop column "home_currency", drop column "home_currency_chosen";`);
  }

}
