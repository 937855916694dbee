import { Migration } from '@mikro-orm/migrations';

export class Migration20261125155022_rules_and_bank_description extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table \`rule\` (\`id\` integer not null primary key autoincrement, \`user_id\` integer not null, \`name\` text not null, \`conditions\` json not null, \`actions\` json not null, \`priority\` integer not null, \`enabled\` integer not null default true, \`created_at\` text not null, constraint \`rule_user_id_foreign\` foreign key(\`user_id\`) references \`user\`(\`id\`) on delete cascade on update cascade);`);
    this.addSql(`create index \`rule_user_priority_index\` on \`rule\` (\`user_id\`, \`priority\`);`);

    this.addSql(`alter table \`transaction\` add column \`bank_description\` text null;`);
  }

}
