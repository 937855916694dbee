import { Migration } from '@mikro-orm/migrations';

/**
 * transaction(user_id) and transaction(account_id) duplicate the leading columns of
 * (user_id, post_date) and (account_id, post_date, amount); dropping them makes imports faster.
 */
export class Migration20261123120551_drop_redundant_indexes extends Migration {
  override async up(): Promise<void> {
    this.addSql('drop index `transaction_account_id_index`;');
    this.addSql('drop index `transaction_user_id_index`;');
  }

  override async down(): Promise<void> {
    this.addSql('create index `transaction_user_id_index` on `transaction` (`user_id`);');
    this.addSql('create index `transaction_account_id_index` on `transaction` (`account_id`);');
  }
}
