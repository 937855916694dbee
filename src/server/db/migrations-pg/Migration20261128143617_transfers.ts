import { Migration } from '@mikro-orm/migrations';
import { addRowSecurity } from './row-security';

export class Migration20261128143617_transfers extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "transfer" ("id" serial primary key, "created_at" varchar(32) not null, "user_id" int not null, "origin" varchar(16) not null);`);
    this.addSql(`create index "transfer_user_id_index" on "transfer" ("user_id");`);

    this.addSql(`create table "transfer_candidate" ("id" serial primary key, "created_at" varchar(32) not null, "user_id" int not null, "first_id" int not null, "second_id" int not null, "score" int not null, "reason" text not null, "status" varchar(10) not null);`);
    this.addSql(`create index "transfer_candidate_second_id_index" on "transfer_candidate" ("second_id");`);
    this.addSql(`create index "transfer_candidate_user_status_index" on "transfer_candidate" ("user_id", "status");`);
    this.addSql(`alter table "transfer_candidate" add constraint "transfer_candidate_pair_unique" unique ("first_id", "second_id");`);

    this.addSql(`alter table "transfer" add constraint "transfer_user_id_foreign" foreign key ("user_id") references "user" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "transfer_candidate" add constraint "transfer_candidate_user_id_foreign" foreign key ("user_id") references "user" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "transfer_candidate" add constraint "transfer_candidate_first_id_foreign" foreign key ("first_id") references "transaction" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "transfer_candidate" add constraint "transfer_candidate_second_id_foreign" foreign key ("second_id") references "transaction" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "user" add column "transfer_window_days" int not null default 5;`);

    this.addSql(`alter table "transaction" add column "transfer_id" int null;`);
    this.addSql(`alter table "transaction" add constraint "transaction_transfer_id_foreign" foreign key ("transfer_id") references "transfer" ("id") on update cascade on delete set null;`);
    this.addSql(`create index "transaction_transfer_id_partial_index" on "transaction" ("transfer_id") where "transfer_id" is not null;`);

    addRowSecurity(this, 'transfer');
    addRowSecurity(this, 'transfer_candidate');
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "transaction" drop constraint "transaction_transfer_id_foreign";`);

    this.addSql(`drop table if exists "transfer" cascade;`);

    this.addSql(`drop table if exists "transfer_candidate" cascade;`);

    this.addSql(`drop index "transaction_transfer_id_partial_index";`);
    this.addSql(`alter table "transaction" drop column "transfer_id";`);

    this.addSql(`alter table "user" drop column "transfer_window_days";`);
  }

}
