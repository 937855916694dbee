import { Migration } from '@mikro-orm/migrations';

/**
 * An account's stated balance was its balance after all its rows; it becomes an opening balance
 * on a date, and the balance is the opening balance plus the counted rows. So every balance shown
 * before stays the same: opening balance = stated balance minus the counted rows, dated the day
 * before the account's earliest row (or the day it was created when it has none).
 */
export class Migration20261128143518_opening_balance extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table \`account\` rename column \`balance\` to \`opening_balance\`;`);
    this.addSql(`alter table \`account\` add column \`opening_date\` text not null default '';`);
    this.addSql(`update \`account\` set
      \`opening_balance\` = \`opening_balance\` - coalesce((select sum(t.\`amount\`) from \`transaction\` t
        where t.\`account_id\` = \`account\`.\`id\` and t.\`is_split\` = 0), 0),
      \`opening_date\` = coalesce((select date(min(t.\`post_date\`), '-1 day') from \`transaction\` t
        where t.\`account_id\` = \`account\`.\`id\`), substr(\`created_at\`, 1, 10));`);
  }
}
