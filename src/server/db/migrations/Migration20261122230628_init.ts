import { Migration } from '@mikro-orm/migrations';

export class Migration20261122230628_init extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table \`user\` (\`id\` integer not null primary key autoincrement, \`username\` text not null, \`username_key\` text not null, \`password_hash\` text not null, \`api_token_hash\` text null, \`api_token_created_at\` text null, \`created_at\` text not null, \`updated_at\` text not null);`);
    this.addSql(`create unique index \`user_username_key_unique\` on \`user\` (\`username_key\`);`);
    this.addSql(`create unique index \`user_api_token_hash_unique\` on \`user\` (\`api_token_hash\`);`);

    this.addSql(`create table \`refresh_token\` (\`id\` integer not null primary key autoincrement, \`user_id\` integer not null, \`token_hash\` text not null, \`family\` text not null, \`expires_at\` text not null, \`used_at\` text null, \`revoked_at\` text null, \`created_at\` text not null, constraint \`refresh_token_user_id_foreign\` foreign key(\`user_id\`) references \`user\`(\`id\`) on delete cascade on update cascade);`);
    this.addSql(`create index \`refresh_token_user_id_index\` on \`refresh_token\` (\`user_id\`);`);
    this.addSql(`create unique index \`refresh_token_token_hash_unique\` on \`refresh_token\` (\`token_hash\`);`);
    this.addSql(`create index \`refresh_token_family_index\` on \`refresh_token\` (\`family\`);`);

    this.addSql(`create table \`envelope\` (\`id\` integer not null primary key autoincrement, \`user_id\` integer not null, \`name\` text not null, \`description\` text null, \`categories\` json not null, \`color\` text not null default '#4CAF50', \`is_active\` integer not null default true, \`created_at\` text not null, constraint \`envelope_user_id_foreign\` foreign key(\`user_id\`) references \`user\`(\`id\`) on delete cascade on update cascade);`);
    this.addSql(`create index \`envelope_user_id_index\` on \`envelope\` (\`user_id\`);`);

    this.addSql(`create table \`category\` (\`id\` integer not null primary key autoincrement, \`user_id\` integer not null, \`name\` text not null, \`name_key\` text not null, \`created_at\` text not null, constraint \`category_user_id_foreign\` foreign key(\`user_id\`) references \`user\`(\`id\`) on delete cascade on update cascade);`);
    this.addSql(`create index \`category_user_id_index\` on \`category\` (\`user_id\`);`);
    this.addSql(`create unique index \`category_user_id_name_key_unique\` on \`category\` (\`user_id\`, \`name_key\`);`);

    this.addSql(`create table \`budget\` (\`id\` integer not null primary key autoincrement, \`user_id\` integer not null, \`name\` text not null, \`start_date\` text not null, \`end_date\` text not null, \`amount\` integer not null default 0, \`created_at\` text not null, constraint \`budget_user_id_foreign\` foreign key(\`user_id\`) references \`user\`(\`id\`) on delete cascade on update cascade);`);
    this.addSql(`create index \`budget_user_id_index\` on \`budget\` (\`user_id\`);`);

    this.addSql(`create table \`line_item\` (\`id\` integer not null primary key autoincrement, \`user_id\` integer not null, \`budget_id\` integer not null, \`name\` text not null, \`amount\` integer not null, \`type\` text not null, \`related_categories\` json not null, \`created_at\` text not null, constraint \`line_item_user_id_foreign\` foreign key(\`user_id\`) references \`user\`(\`id\`) on delete cascade on update cascade, constraint \`line_item_budget_id_foreign\` foreign key(\`budget_id\`) references \`budget\`(\`id\`) on delete cascade on update cascade);`);
    this.addSql(`create index \`line_item_user_id_index\` on \`line_item\` (\`user_id\`);`);
    this.addSql(`create index \`line_item_budget_id_index\` on \`line_item\` (\`budget_id\`);`);

    this.addSql(`create table \`account\` (\`id\` integer not null primary key autoincrement, \`user_id\` integer not null, \`name\` text not null, \`name_key\` text not null, \`type\` text not null, \`balance\` integer not null default 0, \`created_at\` text not null, constraint \`account_user_id_foreign\` foreign key(\`user_id\`) references \`user\`(\`id\`) on delete cascade on update cascade);`);
    this.addSql(`create index \`account_user_id_index\` on \`account\` (\`user_id\`);`);
    this.addSql(`create unique index \`account_user_id_name_key_unique\` on \`account\` (\`user_id\`, \`name_key\`);`);

    this.addSql(`create table \`batch\` (\`id\` text not null, \`user_id\` integer not null, \`account_id\` integer null, \`upload_date\` text not null, \`transaction_count\` integer not null default 0, \`file_name\` text null, \`date_format\` text null, constraint \`batch_user_id_foreign\` foreign key(\`user_id\`) references \`user\`(\`id\`) on delete cascade on update cascade, constraint \`batch_account_id_foreign\` foreign key(\`account_id\`) references \`account\`(\`id\`) on delete set null on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`batch_user_id_index\` on \`batch\` (\`user_id\`);`);
    this.addSql(`create index \`batch_account_id_index\` on \`batch\` (\`account_id\`);`);

    this.addSql(`create table \`transaction\` (\`id\` integer not null primary key autoincrement, \`user_id\` integer not null, \`account_id\` integer null, \`category_id\` integer null, \`post_date\` text not null, \`description\` text not null, \`amount\` integer not null, \`type\` text not null, \`is_split\` integer not null default false, \`parent_id\` integer null, \`split_note\` text null, \`batch_id\` text null, \`created_at\` text not null, constraint \`transaction_user_id_foreign\` foreign key(\`user_id\`) references \`user\`(\`id\`) on delete cascade on update cascade, constraint \`transaction_account_id_foreign\` foreign key(\`account_id\`) references \`account\`(\`id\`) on delete restrict on update cascade, constraint \`transaction_category_id_foreign\` foreign key(\`category_id\`) references \`category\`(\`id\`) on delete set null on update cascade, constraint \`transaction_parent_id_foreign\` foreign key(\`parent_id\`) references \`transaction\`(\`id\`) on delete cascade on update cascade, constraint \`transaction_batch_id_foreign\` foreign key(\`batch_id\`) references \`batch\`(\`id\`) on delete cascade on update cascade);`);
    this.addSql(`create index \`transaction_user_id_index\` on \`transaction\` (\`user_id\`);`);
    this.addSql(`create index \`transaction_account_id_index\` on \`transaction\` (\`account_id\`);`);
    this.addSql(`create index \`transaction_category_id_index\` on \`transaction\` (\`category_id\`);`);
    this.addSql(`create index \`transaction_parent_id_index\` on \`transaction\` (\`parent_id\`);`);
    this.addSql(`create index \`transaction_batch_id_index\` on \`transaction\` (\`batch_id\`);`);
    this.addSql(`create index \`transaction_user_post_date_index\` on \`transaction\` (\`user_id\`, \`post_date\`);`);
    this.addSql(`create index \`transaction_account_post_date_amount_index\` on \`transaction\` (\`account_id\`, \`post_date\`, \`amount\`);`);
  }

}
