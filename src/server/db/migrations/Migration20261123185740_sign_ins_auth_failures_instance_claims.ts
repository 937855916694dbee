import { Migration } from '@mikro-orm/migrations';

/**
 * Sign-ins (checked on every request so ended sessions end at once), failed credential checks
 * (login limits shared through the database) and once-only instance claims (closed registration).
 * Every existing refresh-token family becomes a sign-in, revoked when all its tokens are.
 */
export class Migration20261123185740_sign_ins_auth_failures_instance_claims extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table \`auth_failure\` (\`id\` integer not null primary key autoincrement, \`scope\` text not null, \`at\` text not null);`);
    this.addSql(`create index \`auth_failure_scope_at_index\` on \`auth_failure\` (\`scope\`, \`at\`);`);

    this.addSql(`create table \`instance_claim\` (\`name\` text not null, \`claimed_at\` text not null, primary key (\`name\`));`);

    this.addSql(`create table \`sign_in\` (\`id\` text not null, \`user_id\` integer not null, \`created_at\` text not null, \`revoked_at\` text null, constraint \`sign_in_user_id_foreign\` foreign key(\`user_id\`) references \`user\`(\`id\`) on delete cascade on update cascade, primary key (\`id\`));`);
    this.addSql(`create index \`sign_in_user_id_index\` on \`sign_in\` (\`user_id\`);`);

    this.addSql(`insert into \`sign_in\` (\`id\`, \`user_id\`, \`created_at\`, \`revoked_at\`)
      select \`family\`, min(\`user_id\`), min(\`created_at\`),
             case when sum(\`revoked_at\` is null) > 0 then null else max(\`revoked_at\`) end
        from \`refresh_token\` group by \`family\`;`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists `sign_in`;');
    this.addSql('drop table if exists `instance_claim`;');
    this.addSql('drop table if exists `auth_failure`;');
  }

}
