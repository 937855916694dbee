import { Migration } from '@mikro-orm/migrations';

export class Migration20261128152517_two_factor_and_sign_in_details extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "user" add column "mfa_secret" varchar(64) null, add column "mfa_pending_secret" varchar(64) null, add column "mfa_last_step" int null, add column "mfa_recovery_codes" text null;`);

    this.addSql(`alter table "sign_in" add column "last_seen_at" varchar(32) null, add column "user_agent" varchar(256) null, add column "address" varchar(64) null;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "sign_in" drop column "last_seen_at", drop column "user_agent", drop column "address";`);

    this.addSql(`alter table "user" drop column "mfa_secret", drop column "mfa_pending_secret", drop column "mfa_last_step", drop column "mfa_recovery_codes";`);
  }

}
