import { Migration } from '@mikro-orm/migrations';

export class Migration20261123184245_import_profiles_and_fitid extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table \`import_profile\` (\`id\` integer not null primary key autoincrement, \`user_id\` integer not null, \`account_id\` integer not null, \`mapping\` text not null, \`column_count\` integer not null, \`headers\` text not null, \`updated_at\` text not null, constraint \`import_profile_user_id_foreign\` foreign key(\`user_id\`) references \`user\`(\`id\`) on delete cascade on update cascade, constraint \`import_profile_account_id_foreign\` foreign key(\`account_id\`) references \`account\`(\`id\`) on delete cascade on update cascade);`);
    this.addSql(`create index \`import_profile_user_id_index\` on \`import_profile\` (\`user_id\`);`);
    this.addSql(`create index \`import_profile_account_id_index\` on \`import_profile\` (\`account_id\`);`);
    this.addSql(`create unique index \`import_profile_account_id_unique\` on \`import_profile\` (\`account_id\`);`);

    this.addSql(`alter table \`transaction\` add column \`fitid\` text null;`);
  }

}
