import { Migration } from '@mikro-orm/migrations';

/**
 * transaction(user_id, post_date) becomes (user_id, post_date, category_id, is_split, amount,
 * account_id): the same searches use it, and the monthly report reads only the index.
 */
export class Migration20261123184907_report_covering_index extends Migration {
  override async up(): Promise<void> {
    this.addSql('drop index `transaction_user_post_date_index`;');
    this.addSql(
      'create index `transaction_user_post_date_covering_index` on `transaction` (`user_id`, `post_date`, `category_id`, `is_split`, `amount`, `account_id`);',
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop index `transaction_user_post_date_covering_index`;');
    this.addSql('create index `transaction_user_post_date_index` on `transaction` (`user_id`, `post_date`);');
  }
}
