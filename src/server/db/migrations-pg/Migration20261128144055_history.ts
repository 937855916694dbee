import { Migration } from '@mikro-orm/migrations';
import { addRowSecurity } from './row-security';

export class Migration20261128144055_history extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "history_entry" ("id" serial primary key, "created_at" varchar(32) not null, "user_id" int not null, "kind" varchar(32) not null, "summary" text not null, "state" varchar(8) not null, "row_count" int not null, "batch_id" varchar(64) null);`);
    this.addSql(`create index "history_entry_user_id_index" on "history_entry" ("user_id", "id");`);

    this.addSql(`create table "trashed_transaction" ("id" serial primary key, "user_id" int not null, "entry_id" int not null, "transaction_id" int not null, "account_id" int null, "post_date" varchar(10) not null, "amount" bigint not null, "description" text not null, "fitid" varchar(255) null, "deleted_at" varchar(32) not null);`);
    this.addSql(`create index "trashed_transaction_entry_id_index" on "trashed_transaction" ("entry_id");`);
    this.addSql(`create index "trashed_transaction_account_date_index" on "trashed_transaction" ("user_id", "account_id", "post_date");`);
    this.addSql(`create index "trashed_transaction_user_transaction_index" on "trashed_transaction" ("user_id", "transaction_id");`);

    this.addSql(`create table "history_row" ("id" serial primary key, "user_id" int not null, "entry_id" int not null, "table_name" varchar(32) not null, "row_id" varchar(64) not null, "before" text null, "after" text null);`);
    this.addSql(`create index "history_row_entry_id_index" on "history_row" ("entry_id");`);
    this.addSql(`create index "history_row_user_table_row_index" on "history_row" ("user_id", "table_name", "row_id");`);

    this.addSql(`alter table "history_entry" add constraint "history_entry_user_id_foreign" foreign key ("user_id") references "user" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "trashed_transaction" add constraint "trashed_transaction_user_id_foreign" foreign key ("user_id") references "user" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "trashed_transaction" add constraint "trashed_transaction_entry_id_foreign" foreign key ("entry_id") references "history_entry" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "history_row" add constraint "history_row_user_id_foreign" foreign key ("user_id") references "user" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "history_row" add constraint "history_row_entry_id_foreign" foreign key ("entry_id") references "history_entry" ("id") on update cascade on delete cascade;`);

    addRowSecurity(this, 'history_entry');
    addRowSecurity(this, 'trashed_transaction');
    addRowSecurity(this, 'history_row');
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "trashed_transaction" drop constraint "trashed_transaction_entry_id_foreign";`);

    this.addSql(`alter table "history_row" drop constraint "history_row_entry_id_foreign";`);

    this.addSql(`drop table if exists "history_entry" cascade;`);

    this.addSql(`drop table if exists "trashed_transaction" cascade;`);

    this.addSql(`drop table if exists "history_row" cascade;`);
  }

}
