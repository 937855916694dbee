import { Migration } from '@mikro-orm/migrations';

export class Migration20261128160946_memo_cleared extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table \`transaction\` add column \`memo\` text null;`);
    this.addSql(`alter table \`transaction\` add column \`cleared\` text not null default 'uncleared';`);
  }

}
