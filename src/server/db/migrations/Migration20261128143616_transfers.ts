import { Migration } from '@mikro-orm/migrations';

export class Migration20261128143616_transfers extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table \`transfer\` (\`id\` integer not null primary key autoincrement, \`created_at\` text not null, \`user_id\` integer not null, \`origin\` text not null, constraint \`transfer_user_id_foreign\` foreign key(\`user_id\`) references \`user\`(\`id\`) on delete cascade on update cascade);`);
    this.addSql(`create index \`transfer_user_id_index\` on \`transfer\` (\`user_id\`);`);

    this.addSql(`create table \`transfer_candidate\` (\`id\` integer not null primary key autoincrement, \`created_at\` text not null, \`user_id\` integer not null, \`first_id\` integer not null, \`second_id\` integer not null, \`score\` integer not null, \`reason\` text not null, \`status\` text not null, constraint \`transfer_candidate_user_id_foreign\` foreign key(\`user_id\`) references \`user\`(\`id\`) on delete cascade on update cascade, constraint \`transfer_candidate_first_id_foreign\` foreign key(\`first_id\`) references \`transaction\`(\`id\`) on delete cascade on update cascade, constraint \`transfer_candidate_second_id_foreign\` foreign key(\`second_id\`) references \`transaction\`(\`id\`) on delete cascade on update cascade);`);
    this.addSql(`create index \`transfer_candidate_second_id_index\` on \`transfer_candidate\` (\`second_id\`);`);
    this.addSql(`create index \`transfer_candidate_user_status_index\` on \`transfer_candidate\` (\`user_id\`, \`status\`);`);
    this.addSql(`create unique index \`transfer_candidate_pair_unique\` on \`transfer_candidate\` (\`first_id\`, \`second_id\`);`);

    this.addSql(`alter table \`user\` add column \`transfer_window_days\` integer not null default 5;`);

    this.addSql(`alter table \`transaction\` add column \`transfer_id\` integer null constraint \`transaction_transfer_id_foreign\` references \`transfer\` (\`id\`) on update cascade on delete set null;`);
    this.addSql(`create index "transaction_transfer_id_partial_index" on "transaction" ("transfer_id") where "transfer_id" is not null;`);
  }

}
