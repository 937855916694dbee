import { Migration } from '@mikro-orm/migrations';
import { rowSecuritySql } from './row-security';

export class Migration20261128111024_schedules extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "schedule" ("id" serial primary key, "created_at" varchar(32) not null, "user_id" int not null, "account_id" int not null, "name" varchar(255) not null, "description" text not null, "amount" bigint not null, "tolerance_basis_points" int not null default 0, "category_id" int null, "recurrence" varchar(500) not null, "weekend_rule" varchar(8) not null, "mode" varchar(8) not null, "match_window" int not null, "start_date" varchar(10) not null, "end_after" int null, "end_until" varchar(10) null);`);
    this.addSql(`create index "schedule_account_id_index" on "schedule" ("account_id");`);
    this.addSql(`create index "schedule_category_id_index" on "schedule" ("category_id");`);
    this.addSql(`create index "schedule_user_id_index" on "schedule" ("user_id");`);

    this.addSql(`create table "schedule_occurrence" ("id" serial primary key, "user_id" int not null, "schedule_id" int not null, "scheduled_date" varchar(10) not null, "due_date" varchar(10) not null, "amount" bigint not null, "status" varchar(10) not null, "transaction_id" int null, "created_at" varchar(32) not null);`);
    this.addSql(`create index "schedule_occurrence_user_status_index" on "schedule_occurrence" ("user_id", "status", "due_date");`);
    this.addSql(`alter table "schedule_occurrence" add constraint "schedule_occurrence_schedule_date_unique" unique ("schedule_id", "scheduled_date");`);
    this.addSql(`alter table "schedule_occurrence" add constraint "schedule_occurrence_transaction_unique" unique ("transaction_id");`);

    this.addSql(`alter table "schedule" add constraint "schedule_user_id_foreign" foreign key ("user_id") references "user" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "schedule" add constraint "schedule_account_id_foreign" foreign key ("account_id") references "account" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "schedule" add constraint "schedule_category_id_foreign" foreign key ("category_id") references "category" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "schedule_occurrence" add constraint "schedule_occurrence_user_id_foreign" foreign key ("user_id") references "user" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "schedule_occurrence" add constraint "schedule_occurrence_schedule_id_foreign" foreign key ("schedule_id") references "schedule" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "schedule_occurrence" add constraint "schedule_occurrence_transaction_id_foreign" foreign key ("transaction_id") references "transaction" ("id") on update cascade on delete set null;`);

    // Not from the entities: schedules and their occurrences are user-owned rows (row-level security, see row-security.ts).
    for (const table of ['schedule', 'schedule_occurrence']) for (const sql of rowSecuritySql(table)) this.addSql(sql);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "schedule_occurrence" drop constraint "schedule_occurrence_schedule_id_foreign";`);

    this.addSql(`drop table if exists "schedule" cascade;`);

    this.addSql(`drop table if exists "schedule_occurrence" cascade;`);
  }

}
