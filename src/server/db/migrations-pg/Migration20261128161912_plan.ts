import { Migration } from '@mikro-orm/migrations';
import { addRowSecurity } from './row-security';

export class Migration20261128161912_plan extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "plan_hold" ("id" serial primary key, "user_id" int not null, "month" varchar(7) not null, "amount" bigint not null);`);
    this.addSql(`alter table "plan_hold" add constraint "plan_hold_user_month_unique" unique ("user_id", "month");`);

    this.addSql(`create table "plan_move" ("id" serial primary key, "user_id" int not null, "month" varchar(7) not null, "from_category_id" int null, "to_category_id" int null, "amount" bigint not null, "date" varchar(10) not null, "created_at" varchar(32) not null);`);
    this.addSql(`create index "plan_move_from_category_id_index" on "plan_move" ("from_category_id");`);
    this.addSql(`create index "plan_move_to_category_id_index" on "plan_move" ("to_category_id");`);
    this.addSql(`create index "plan_move_user_month_index" on "plan_move" ("user_id", "month");`);

    this.addSql(`create table "plan_assigned" ("id" serial primary key, "user_id" int not null, "category_id" int not null, "month" varchar(7) not null, "amount" bigint not null);`);
    this.addSql(`create index "plan_assigned_user_month_index" on "plan_assigned" ("user_id", "month");`);
    this.addSql(`alter table "plan_assigned" add constraint "plan_assigned_category_month_unique" unique ("category_id", "month");`);

    this.addSql(`alter table "plan_hold" add constraint "plan_hold_user_id_foreign" foreign key ("user_id") references "user" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "plan_move" add constraint "plan_move_user_id_foreign" foreign key ("user_id") references "user" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "plan_move" add constraint "plan_move_from_category_id_foreign" foreign key ("from_category_id") references "category" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "plan_move" add constraint "plan_move_to_category_id_foreign" foreign key ("to_category_id") references "category" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "plan_assigned" add constraint "plan_assigned_user_id_foreign" foreign key ("user_id") references "user" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "plan_assigned" add constraint "plan_assigned_category_id_foreign" foreign key ("category_id") references "category" ("id") on update cascade on delete cascade;`);

    addRowSecurity(this, 'plan_hold');
    addRowSecurity(this, 'plan_move');
    addRowSecurity(this, 'plan_assigned');
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "plan_hold" cascade;`);

    this.addSql(`drop table if exists "plan_move" cascade;`);

    this.addSql(`drop table if exists "plan_assigned" cascade;`);
  }

}
