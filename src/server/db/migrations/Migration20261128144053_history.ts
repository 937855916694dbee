import { Migration } from '@mikro-orm/migrations';

export class Migration20261128144053_history extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table \`history_entry\` (\`id\` integer not null primary key autoincrement, \`created_at\` text not null, \`user_id\` integer not null, \`kind\` text not null, \`summary\` text not null, \`state\` text not null, \`row_count\` integer not null, \`batch_id\` text null, constraint \`history_entry_user_id_foreign\` foreign key(\`user_id\`) references \`user\`(\`id\`) on delete cascade on update cascade);`);
    this.addSql(`create index \`history_entry_user_id_index\` on \`history_entry\` (\`user_id\`, \`id\`);`);

    this.addSql(`create table \`trashed_transaction\` (\`id\` integer not null primary key autoincrement, \`user_id\` integer not null, \`entry_id\` integer not null, \`transaction_id\` integer not null, \`account_id\` integer null, \`post_date\` text not null, \`amount\` integer not null, \`description\` text not null, \`fitid\` text null, \`deleted_at\` text not null, constraint \`trashed_transaction_user_id_foreign\` foreign key(\`user_id\`) references \`user\`(\`id\`) on delete cascade on update cascade, constraint \`trashed_transaction_entry_id_foreign\` foreign key(\`entry_id\`) references \`history_entry\`(\`id\`) on delete cascade on update cascade);`);
    this.addSql(`create index \`trashed_transaction_entry_id_index\` on \`trashed_transaction\` (\`entry_id\`);`);
    this.addSql(`create index \`trashed_transaction_account_date_index\` on \`trashed_transaction\` (\`user_id\`, \`account_id\`, \`post_date\`);`);
    this.addSql(`create index \`trashed_transaction_user_transaction_index\` on \`trashed_transaction\` (\`user_id\`, \`transaction_id\`);`);

    this.addSql(`create table \`history_row\` (\`id\` integer not null primary key autoincrement, \`user_id\` integer not null, \`entry_id\` integer not null, \`table_name\` text not null, \`row_id\` text not null, \`before\` text null, \`after\` text null, constraint \`history_row_user_id_foreign\` foreign key(\`user_id\`) references \`user\`(\`id\`) on delete cascade on update cascade, constraint \`history_row_entry_id_foreign\` foreign key(\`entry_id\`) references \`history_entry\`(\`id\`) on delete cascade on update cascade);`);
    this.addSql(`create index \`history_row_entry_id_index\` on \`history_row\` (\`entry_id\`);`);
    this.addSql(`create index \`history_row_user_table_row_index\` on \`history_row\` (\`user_id\`, \`table_name\`, \`row_id\`);`);
  }

}
