import { Migration } from '@mikro-orm/migrations';

export class Migration20261128111023_schedules extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table \`schedule\` (\`id\` integer not null primary key autoincrement, \`created_at\` text not null, \`user_id\` integer not null, \`account_id\` integer not null, \`name\` text not null, \`description\` text not null, \`amount\` integer not null, \`tolerance_basis_points\` integer not null default 0, \`category_id\` integer null, \`recurrence\` text not null, \`weekend_rule\` text not null, \`mode\` text not null, \`match_window\` integer not null, \`start_date\` text not null, \`end_after\` integer null, \`end_until\` text null, constraint \`schedule_user_id_foreign\` foreign key(\`user_id\`) references \`user\`(\`id\`) on delete cascade on update cascade, constraint \`schedule_account_id_foreign\` foreign key(\`account_id\`) references \`account\`(\`id\`) on delete cascade on update cascade, constraint \`schedule_category_id_foreign\` foreign key(\`category_id\`) references \`category\`(\`id\`) on delete set null on update cascade);`);
    this.addSql(`create index \`schedule_account_id_index\` on \`schedule\` (\`account_id\`);`);
    this.addSql(`create index \`schedule_category_id_index\` on \`schedule\` (\`category_id\`);`);
    this.addSql(`create index \`schedule_user_id_index\` on \`schedule\` (\`user_id\`);`);

    this.addSql(`create table \`schedule_occurrence\` (\`id\` integer not null primary key autoincrement, \`user_id\` integer not null, \`schedule_id\` integer not null, \`scheduled_date\` text not null, \`due_date\` text not null, \`amount\` integer not null, \`status\` text not null, \`transaction_id\` integer null, \`created_at\` text not null, constraint \`schedule_occurrence_user_id_foreign\` foreign key(\`user_id\`) references \`user\`(\`id\`) on delete cascade on update cascade, constraint \`schedule_occurrence_schedule_id_foreign\` foreign key(\`schedule_id\`) references \`schedule\`(\`id\`) on delete cascade on update cascade, constraint \`schedule_occurrence_transaction_id_foreign\` foreign key(\`transaction_id\`) references \`transaction\`(\`id\`) on delete set null on update cascade);`);
    this.addSql(`create index \`schedule_occurrence_user_status_index\` on \`schedule_occurrence\` (\`user_id\`, \`status\`, \`due_date\`);`);
    this.addSql(`create unique index \`schedule_occurrence_schedule_date_unique\` on \`schedule_occurrence\` (\`schedule_id\`, \`scheduled_date\`);`);
    this.addSql(`create unique index \`schedule_occurrence_transaction_unique\` on \`schedule_occurrence\` (\`transaction_id\`);`);
  }

}
