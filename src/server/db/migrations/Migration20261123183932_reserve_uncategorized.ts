import { Migration } from '@mikro-orm/migrations';

/**
 * 'Uncategorized' now means "no category" everywhere, so no category may carry that name.
 * A category stored under it before (in any letter case) already counted as "no category" in
 * the budget overview: its transactions become uncategorised and the category goes, so search,
 * envelopes and the overview agree. Nothing else about those transactions changes.
 */
export class Migration20261123183932_reserve_uncategorized extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      "update `transaction` set `category_id` = null where `category_id` in (select `id` from `category` where `name_key` = 'uncategorized');",
    );
    this.addSql("delete from `category` where `name_key` = 'uncategorized';");
  }

  override async down(): Promise<void> {
    // The name stays reserved: there is nothing to restore.
  }
}
