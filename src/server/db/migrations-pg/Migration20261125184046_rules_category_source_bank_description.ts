import { Migration } from '@mikro-orm/migrations';
import { rowSecuritySql } from './row-security';

export class Migration20261125184046_rules_category_source_bank_description extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "rule" ("id" serial primary key, "user_id" int not null, "name" varchar(255) not null, "conditions" jsonb not null, "actions" jsonb not null, "priority" int not null, "enabled" boolean not null default true, "created_at" varchar(32) not null);`);
    this.addSql(`create index "rule_user_priority_index" on "rule" ("user_id", "priority");`);

    this.addSql(`alter table "rule" add constraint "rule_user_id_foreign" foreign key ("user_id") references "user" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "account" add column "apply_suggestions" boolean not null default true;`);

    this.addSql(`alter table "transaction" add column "category_source" varchar(16) null, add column "bank_description" text null;`);

    // Not from the entities: rules are user-owned rows (row-level security, see row-security.ts).
    for (const sql of rowSecuritySql('rule')) this.addSql(sql);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "rule" cascade;`);

    this.addSql(`alter table "account" drop column "apply_suggestions";`);

    this.addSql(`alter table "transaction" drop column "category_source", drop column "bank_description";`);
  }

}
