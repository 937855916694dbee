import { Migration } from '@mikro-orm/migrations';
import { FOLD_FUNCTION_SQL, rowSecuritySql } from './row-security';

export class Migration20261125153946_init extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "auth_failure" ("id" serial primary key, "scope" varchar(400) not null, "at" varchar(32) not null);`);
    this.addSql(`create index "auth_failure_scope_at_index" on "auth_failure" ("scope", "at");`);

    this.addSql(`create table "instance_claim" ("name" varchar(64) not null, "claimed_at" varchar(32) not null, constraint "instance_claim_pkey" primary key ("name"));`);

    this.addSql(`create table "user" ("id" serial primary key, "username" varchar(64) not null, "username_key" varchar(64) not null, "password_hash" varchar(255) not null, "api_token_hash" varchar(64) null, "api_token_created_at" varchar(32) null, "created_at" varchar(32) not null, "updated_at" varchar(32) not null);`);
    this.addSql(`alter table "user" add constraint "user_username_key_unique" unique ("username_key");`);
    this.addSql(`alter table "user" add constraint "user_api_token_hash_unique" unique ("api_token_hash");`);

    this.addSql(`create table "sign_in" ("id" varchar(64) not null, "user_id" int not null, "created_at" varchar(32) not null, "revoked_at" varchar(32) null, constraint "sign_in_pkey" primary key ("id"));`);
    this.addSql(`create index "sign_in_user_id_index" on "sign_in" ("user_id");`);

    this.addSql(`create table "refresh_token" ("id" serial primary key, "user_id" int not null, "token_hash" varchar(64) not null, "family" varchar(64) not null, "expires_at" varchar(32) not null, "used_at" varchar(32) null, "revoked_at" varchar(32) null, "created_at" varchar(32) not null);`);
    this.addSql(`create index "refresh_token_user_id_index" on "refresh_token" ("user_id");`);
    this.addSql(`alter table "refresh_token" add constraint "refresh_token_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "refresh_token_family_index" on "refresh_token" ("family");`);

    this.addSql(`create table "envelope" ("id" serial primary key, "user_id" int not null, "name" varchar(255) not null, "description" text null, "categories" jsonb not null, "color" varchar(7) not null default '#4CAF50', "is_active" boolean not null default true, "created_at" varchar(32) not null);`);
    this.addSql(`create index "envelope_user_id_index" on "envelope" ("user_id");`);

    this.addSql(`create table "category" ("id" serial primary key, "user_id" int not null, "name" varchar(255) not null, "name_key" varchar(255) not null, "created_at" varchar(32) not null);`);
    this.addSql(`alter table "category" add constraint "category_user_id_name_key_unique" unique ("user_id", "name_key");`);

    this.addSql(`create table "budget" ("id" serial primary key, "user_id" int not null, "name" varchar(255) not null, "start_date" varchar(10) not null, "end_date" varchar(10) not null, "amount" int not null default 0, "created_at" varchar(32) not null);`);
    this.addSql(`create index "budget_user_id_index" on "budget" ("user_id");`);

    this.addSql(`create table "line_item" ("id" serial primary key, "user_id" int not null, "budget_id" int not null, "name" varchar(255) not null, "amount" int not null, "type" varchar(16) not null, "related_categories" jsonb not null, "created_at" varchar(32) not null);`);
    this.addSql(`create index "line_item_user_id_index" on "line_item" ("user_id");`);
    this.addSql(`create index "line_item_budget_id_index" on "line_item" ("budget_id");`);

    this.addSql(`create table "account" ("id" serial primary key, "user_id" int not null, "name" varchar(255) not null, "name_key" varchar(255) not null, "type" varchar(16) not null, "balance" int not null default 0, "created_at" varchar(32) not null);`);
    this.addSql(`alter table "account" add constraint "account_user_id_name_key_unique" unique ("user_id", "name_key");`);

    this.addSql(`create table "import_profile" ("id" serial primary key, "user_id" int not null, "account_id" int not null, "mapping" text not null, "column_count" int not null, "headers" text not null, "updated_at" varchar(32) not null);`);
    this.addSql(`create index "import_profile_user_id_index" on "import_profile" ("user_id");`);
    this.addSql(`alter table "import_profile" add constraint "import_profile_account_id_unique" unique ("account_id");`);

    this.addSql(`create table "batch" ("id" varchar(36) not null, "user_id" int not null, "account_id" int null, "upload_date" varchar(32) not null, "transaction_count" int not null default 0, "file_name" varchar(255) null, "date_format" varchar(32) null, constraint "batch_pkey" primary key ("id"));`);
    this.addSql(`create index "batch_user_id_index" on "batch" ("user_id");`);
    this.addSql(`create index "batch_account_id_index" on "batch" ("account_id");`);

    this.addSql(`create table "transaction" ("id" serial primary key, "user_id" int not null, "account_id" int null, "category_id" int null, "post_date" varchar(10) not null, "description" text not null, "amount" int not null, "type" varchar(16) not null, "is_split" boolean not null default false, "parent_id" int null, "split_note" text null, "batch_id" varchar(36) null, "fitid" varchar(255) null, "created_at" varchar(32) not null);`);
    this.addSql(`create index "transaction_category_id_index" on "transaction" ("category_id");`);
    this.addSql(`create index "transaction_parent_id_index" on "transaction" ("parent_id");`);
    this.addSql(`create index "transaction_batch_id_index" on "transaction" ("batch_id");`);
    this.addSql(`create index "transaction_user_post_date_covering_index" on "transaction" ("user_id", "post_date", "category_id", "is_split", "amount", "account_id");`);
    this.addSql(`create index "transaction_account_post_date_amount_split_index" on "transaction" ("account_id", "post_date", "amount", "is_split");`);

    this.addSql(`alter table "sign_in" add constraint "sign_in_user_id_foreign" foreign key ("user_id") references "user" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "refresh_token" add constraint "refresh_token_user_id_foreign" foreign key ("user_id") references "user" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "envelope" add constraint "envelope_user_id_foreign" foreign key ("user_id") references "user" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "category" add constraint "category_user_id_foreign" foreign key ("user_id") references "user" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "budget" add constraint "budget_user_id_foreign" foreign key ("user_id") references "user" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "line_item" add constraint "line_item_user_id_foreign" foreign key ("user_id") references "user" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "line_item" add constraint "line_item_budget_id_foreign" foreign key ("budget_id") references "budget" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "account" add constraint "account_user_id_foreign" foreign key ("user_id") references "user" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "import_profile" add constraint "import_profile_user_id_foreign" foreign key ("user_id") references "user" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "import_profile" add constraint "import_profile_account_id_foreign" foreign key ("account_id") references "account" ("id") on update cascade on delete cascade;`);

    this.addSql(`alter table "batch" add constraint "batch_user_id_foreign" foreign key ("user_id") references "user" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "batch" add constraint "batch_account_id_foreign" foreign key ("account_id") references "account" ("id") on update cascade on delete set null;`);

    this.addSql(`alter table "transaction" add constraint "transaction_user_id_foreign" foreign key ("user_id") references "user" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "transaction" add constraint "transaction_account_id_foreign" foreign key ("account_id") references "account" ("id") on update cascade on delete restrict;`);
    this.addSql(`alter table "transaction" add constraint "transaction_category_id_foreign" foreign key ("category_id") references "category" ("id") on update cascade on delete set null;`);
    this.addSql(`alter table "transaction" add constraint "transaction_parent_id_foreign" foreign key ("parent_id") references "transaction" ("id") on update cascade on delete cascade;`);
    this.addSql(`alter table "transaction" add constraint "transaction_batch_id_foreign" foreign key ("batch_id") references "batch" ("id") on update cascade on delete cascade;`);

    // Not from the entities: the search's fold() and row-level security on every user-owned table.
    this.addSql(FOLD_FUNCTION_SQL);
    for (const table of ['account', 'category', 'batch', 'transaction', 'budget', 'line_item', 'envelope', 'import_profile']) {
      for (const sql of rowSecuritySql(table)) this.addSql(sql);
    }
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "sign_in" drop constraint "sign_in_user_id_foreign";`);

    this.addSql(`alter table "refresh_token" drop constraint "refresh_token_user_id_foreign";`);

    this.addSql(`alter table "envelope" drop constraint "envelope_user_id_foreign";`);

    this.addSql(`alter table "category" drop constraint "category_user_id_foreign";`);

    this.addSql(`alter table "budget" drop constraint "budget_user_id_foreign";`);

    this.addSql(`alter table "line_item" drop constraint "line_item_user_id_foreign";`);

    this.addSql(`alter table "account" drop constraint "account_user_id_foreign";`);

    this.addSql(`alter table "import_profile" drop constraint "import_profile_user_id_foreign";`);

    this.addSql(`alter table "batch" drop constraint "batch_user_id_foreign";`);

    this.addSql(`alter table "transaction" drop constraint "transaction_user_id_foreign";`);

    this.addSql(`alter table "transaction" drop constraint "transaction_category_id_foreign";`);

    this.addSql(`alter table "line_item" drop constraint "line_item_budget_id_foreign";`);

    this.addSql(`alter table "import_profile" drop constraint "import_profile_account_id_foreign";`);

    this.addSql(`alter table "batch" drop constraint "batch_account_id_foreign";`);

    this.addSql(`alter table "transaction" drop constraint "transaction_account_id_foreign";`);

    this.addSql(`alter table "transaction" drop constraint "transaction_batch_id_foreign";`);

    this.addSql(`alter table "transaction" drop constraint "transaction_parent_id_foreign";`);

    this.addSql(`drop table if exists "auth_failure" cascade;`);

    this.addSql(`drop table if exists "instance_claim" cascade;`);

    this.addSql(`drop table if exists "user" cascade;`);

    this.addSql(`drop table if exists "sign_in" cascade;`);

    this.addSql(`drop table if exists "refresh_token" cascade;`);

    this.addSql(`drop table if exists "envelope" cascade;`);

    this.addSql(`drop table if exists "category" cascade;`);

    this.addSql(`drop table if exists "budget" cascade;`);

    this.addSql(`drop table if exists "line_item" cascade;`);

    this.addSql(`drop table if exists "account" cascade;`);

    this.addSql(`drop table if exists "import_profile" cascade;`);

    this.addSql(`drop table if exists "batch" cascade;`);

    this.addSql(`drop table if exists "transaction" cascade;`);
  }

}
