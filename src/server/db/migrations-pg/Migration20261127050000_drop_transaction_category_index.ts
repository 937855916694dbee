import { Migration } from '@mikro-orm/migrations';

/**
 * transaction(category_id) is dropped: no query looks rows up by category alone (every search,
 * overview, envelope, report and suggestion reads one user's rows through the user's covering
 * index, which holds category_id), and its entry cost each imported row more than any other
 * index (20 categories are 20 places of insertion, each split in the middle). The foreign key stays; only deleting a category (the app never does, a user's
 * deletion does) now reads the table to clear its rows' category_id. "if exists": a database that
 * already lost the index (a re-run) migrates too.
 */
export class Migration20261127050000_drop_transaction_category_index extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop index if exists "transaction_category_id_index";`);
  }

  override async down(): Promise<void> {
    this.addSql(`create index "transaction_category_id_index" on "transaction" ("category_id");`);
  }
}
