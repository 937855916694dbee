import { Migration } from '@mikro-orm/migrations';

export class Migration20261128160950_memo_cleared extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "transaction" add column "memo" text null, add column "cleared" varchar(16) not null default 'uncleared';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "transaction" drop column "memo", drop column "cleared";`);
  }

}
