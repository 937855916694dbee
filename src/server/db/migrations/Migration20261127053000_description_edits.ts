import { Migration } from '@mikro-orm/migrations';

/**
 * The learned-suggestion cache's checksum (suggestions.service.ts) sees a description edit only
 * when it changes the text's length or first character. Each user now counts the edits of their
 * transactions' descriptions (`user.description_edits`), kept by a trigger whatever path writes
 * (the API, rules that rename, a restore), and the checksum reads that count.
 */
export class Migration20261127053000_description_edits extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table `user` add column `description_edits` integer not null default 0;');
    this.addSql(
      'create trigger `transaction_description_edited` after update of `description` on `transaction` for each row when old.`description` is not new.`description` begin update `user` set `description_edits` = `description_edits` + 1 where `id` = new.`user_id`; end;',
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists `transaction_description_edited`;');
    this.addSql('alter table `user` drop column `description_edits`;');
  }
}
