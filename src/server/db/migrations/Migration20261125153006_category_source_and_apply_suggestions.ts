import { Migration } from '@mikro-orm/migrations';

/**
 * Every transaction records where its category came from (`category_source`: bank,
 * rule, suggested, user; null for uncategorised and for rows stored before), and each account
 * has the setting "Apply confident suggestions" (on by default, also for existing accounts).
 */
export class Migration20261125153006_category_source_and_apply_suggestions extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table `account` add column `apply_suggestions` integer not null default true;');
    this.addSql('alter table `transaction` add column `category_source` text null;');
  }

  override async down(): Promise<void> {
    this.addSql('alter table `transaction` drop column `category_source`;');
    this.addSql('alter table `account` drop column `apply_suggestions`;');
  }
}
