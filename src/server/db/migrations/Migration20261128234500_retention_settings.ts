import { Migration } from '@mikro-orm/migrations';

export class Migration20261128234500_retention_settings extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table \`user\` add column \`history_retention_days\` integer null;`);
    this.addSql(`alter table \`user\` add column \`trash_retention_days\` integer null;`);
  }

}
