import { Migration } from '@mikro-orm/migrations';
import { addRowSecurity } from './row-security';

export class Migration20261128205508_plan_month_sums extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table "plan_month_sum" ("id" serial primary key, "user_id" int not null, "account_id" int not null, "category_key" int not null, "month" varchar(7) not null, "n" int not null, "total" bigint not null);`);
    this.addSql(`alter table "plan_month_sum" add constraint "plan_month_sum_key_unique" unique ("user_id", "account_id", "category_key", "month");`);

    this.addSql(`alter table "plan_month_sum" add constraint "plan_month_sum_user_id_foreign" foreign key ("user_id") references "user" ("id") on update cascade on delete cascade;`);

    // The plan's month sums are derived from the transaction table and kept right by these triggers, whichever path
    // writes it (imports, restores, rules, undo, cascades): counted rows (not split parents) without a transfer link.
    // Statement-level triggers read the statement's rows as transition tables: one grouped write a statement.
    const grouped = (rows: string, sign: string) =>
      `select user_id, account_id, coalesce(category_id, 0) as category_key, substr(post_date, 1, 7) as month,
              ${sign}count(*)::int as n, ${sign}sum(amount)::bigint as total
         from ${rows} where is_split = false and transfer_id is null and account_id is not null group by 1, 2, 3, 4`;
    const add = (rows: string) =>
      `insert into plan_month_sum as s (user_id, account_id, category_key, month, n, total) ${grouped(rows, '')}
       on conflict (user_id, account_id, category_key, month) do update set n = s.n + excluded.n, total = s.total + excluded.total;`;
    const take = (rows: string) =>
      `update plan_month_sum s set n = s.n - d.n, total = s.total - d.total from (${grouped(rows, '')}) d
        where s.user_id = d.user_id and s.account_id = d.account_id and s.category_key = d.category_key and s.month = d.month;`;
    const fn = (name: string, body: string) =>
      `create function ${name}() returns trigger language plpgsql as $$ begin ${body} return null; end $$;`;
    this.addSql(fn('plan_month_sum_inserted', add('new_rows')));
    this.addSql(fn('plan_month_sum_deleted', take('old_rows')));
    this.addSql(fn('plan_month_sum_updated', `${take('old_rows')} ${add('new_rows')}`));
    this.addSql(`create trigger plan_month_sum_insert after insert on "transaction" referencing new table as new_rows
      for each statement execute function plan_month_sum_inserted();`);
    this.addSql(`create trigger plan_month_sum_delete after delete on "transaction" referencing old table as old_rows
      for each statement execute function plan_month_sum_deleted();`);
    this.addSql(`create trigger plan_month_sum_update after update on "transaction"
      referencing old table as old_rows new table as new_rows for each statement execute function plan_month_sum_updated();`);
    // The back-fill reads every user's rows: the table's owner (the app's role) is bound by row-level security
    // only while it is forced, so it is lifted for this statement, inside the migration's transaction.
    this.addSql(`alter table "transaction" no force row level security;`);
    this.addSql(`insert into plan_month_sum (user_id, account_id, category_key, month, n, total) ${grouped('"transaction"', '')};`);
    this.addSql(`alter table "transaction" force row level security;`);

    addRowSecurity(this, 'plan_month_sum');
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists plan_month_sum_insert on "transaction";`);
    this.addSql(`drop trigger if exists plan_month_sum_delete on "transaction";`);
    this.addSql(`drop trigger if exists plan_month_sum_update on "transaction";`);
    this.addSql(`drop function if exists plan_month_sum_inserted, plan_month_sum_deleted, plan_month_sum_updated;`);
    this.addSql(`drop table if exists "plan_month_sum" cascade;`);
  }

}
