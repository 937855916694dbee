import { Migration } from '@mikro-orm/migrations';

export class Migration20261128155731_exchange_rates extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table \`exchange_rate\` (\`id\` integer not null primary key autoincrement, \`created_at\` text not null, \`date\` text not null, \`base\` text not null, \`quote\` text not null, \`rate\` text not null);`);
    this.addSql(`create index \`exchange_rate_date_index\` on \`exchange_rate\` (\`date\`);`);
    this.addSql(`create unique index \`exchange_rate_base_quote_date_unique\` on \`exchange_rate\` (\`base\`, \`quote\`, \`date\`);`);
  }

}
