import { Migration } from '@mikro-orm/migrations';

/**
 * transaction(parent_id) is indexed only where it is set: split parts are the only rows with a
 * parent, so imported rows no longer add an entry each to this index.
 */
export class Migration20261126230800_partial_parent_index extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "transaction_parent_id_partial_index" on "transaction" ("parent_id") where "parent_id" is not null;`);
    this.addSql(`drop index "transaction_parent_id_index";`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "transaction_parent_id_partial_index";`);
    this.addSql(`create index "transaction_parent_id_index" on "transaction" ("parent_id");`);
  }
}
