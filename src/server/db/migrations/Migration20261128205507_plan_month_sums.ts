import { Migration } from '@mikro-orm/migrations';

export class Migration20261128205507_plan_month_sums extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table \`plan_month_sum\` (\`id\` integer not null primary key autoincrement, \`user_id\` integer not null, \`account_id\` integer not null, \`category_key\` integer not null, \`month\` text not null, \`n\` integer not null, \`total\` integer not null, constraint \`plan_month_sum_user_id_foreign\` foreign key(\`user_id\`) references \`user\`(\`id\`) on delete cascade on update cascade);`);
    this.addSql(`create unique index \`plan_month_sum_key_unique\` on \`plan_month_sum\` (\`user_id\`, \`account_id\`, \`category_key\`, \`month\`);`);

    // The plan's month sums are derived from the transaction table and kept right by these triggers, whichever path
    // writes it (imports, restores, rules, undo, cascades): counted rows (not split parents) without a transfer link.
    const counted = (row: string) =>
      `${row}.is_split = 0 and ${row}.transfer_id is null and ${row}.account_id is not null`;
    const key = (row: string) =>
      `user_id = ${row}.user_id and account_id = ${row}.account_id and category_key = coalesce(${row}.category_id, 0) and month = substr(${row}.post_date, 1, 7)`;
    const add = (row: string, where: string) =>
      `insert into plan_month_sum (user_id, account_id, category_key, month, n, total)
         select ${row}.user_id, ${row}.account_id, coalesce(${row}.category_id, 0), substr(${row}.post_date, 1, 7), 1, ${row}.amount
          where ${where}
       on conflict (user_id, account_id, category_key, month) do update set n = n + 1, total = total + excluded.total;`;
    const take = (row: string, where: string) =>
      `update plan_month_sum set n = n - 1, total = total - ${row}.amount where ${key(row)} and ${where};`;
    this.addSql(`create trigger plan_month_sum_insert after insert on "transaction" when ${counted('new')}
      begin ${add('new', 'true')} end;`);
    this.addSql(`create trigger plan_month_sum_delete after delete on "transaction" when ${counted('old')}
      begin ${take('old', 'true')} end;`);
    this.addSql(`create trigger plan_month_sum_update
      after update of user_id, account_id, category_id, post_date, amount, is_split, transfer_id on "transaction"
      begin ${take('old', counted('old'))} ${add('new', counted('new'))} end;`);
    this.addSql(`insert into plan_month_sum (user_id, account_id, category_key, month, n, total)
      select user_id, account_id, coalesce(category_id, 0), substr(post_date, 1, 7), count(*), sum(amount)
        from "transaction" where ${counted('"transaction"')} group by 1, 2, 3, 4;`);
  }

}
