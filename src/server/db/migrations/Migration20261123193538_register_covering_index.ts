import { Migration } from '@mikro-orm/migrations';

/**
 * transaction(account_id, post_date, amount) gains is_split: import duplicate detection uses it
 * as before, and an account register sums the counted rows after a date from the index alone.
 */
export class Migration20261123193538_register_covering_index extends Migration {
  override async up(): Promise<void> {
    this.addSql('drop index `transaction_account_post_date_amount_index`;');
    this.addSql('create index `transaction_account_post_date_amount_split_index` on `transaction` (`account_id`, `post_date`, `amount`, `is_split`);');
  }

  override async down(): Promise<void> {
    this.addSql('drop index `transaction_account_post_date_amount_split_index`;');
    this.addSql('create index `transaction_account_post_date_amount_index` on `transaction` (`account_id`, `post_date`, `amount`);');
  }
}
