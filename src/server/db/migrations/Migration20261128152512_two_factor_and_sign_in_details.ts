import { Migration } from '@mikro-orm/migrations';

export class Migration20261128152512_two_factor_and_sign_in_details extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table \`user\` add column \`mfa_secret\` text null;`);
    this.addSql(`alter table \`user\` add column \`mfa_pending_secret\` text null;`);
    this.addSql(`alter table \`user\` add column \`mfa_last_step\` integer null;`);
    this.addSql(`alter table \`user\` add column \`mfa_recovery_codes\` text null;`);

    this.addSql(`alter table \`sign_in\` add column \`last_seen_at\` text null;`);
    this.addSql(`alter table \`sign_in\` add column \`user_agent\` text null;`);
    this.addSql(`alter table \`sign_in\` add column \`address\` text null;`);
  }

}
