import { Migration } from '@mikro-orm/migrations';

export class Migration20261128155734_exchange_rates extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "exchange_rate" ("id" serial primary key, "created_at" varchar(32) not null, "date" varchar(10) not null, "base" varchar(3) not null, "quote" varchar(3) not null, "rate" varchar(40) not null);`);
    this.addSql(`create index "exchange_rate_date_index" on "exchange_rate" ("date");`);
    this.addSql(`alter table "exchange_rate" add constraint "exchange_rate_base_quote_date_unique" unique ("base", "quote", "date");`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "exchange_rate" cascade;`);
  }

}
