import { Migration } from '@mikro-orm/migrations';

export class Migration20261128143525_category_kinds_on_budget extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table "category" add column "kind" varchar(8) not null default 'expense', add column "hidden" boolean not null default false, add column "rolls_overspending_from" varchar(7) null, add column "target_type" varchar(8) null, add column "target_amount" bigint null, add column "target_date" varchar(10) null;`);

    this.addSql(`alter table "account" add column "on_budget" boolean not null default true;`);

    // A category whose counted transactions are mostly money in is an income category; investment
    // accounts stay off the plan, as new ones are created.
    this.addSql(`update "category" set "kind" = 'income' where "id" in (select t."category_id" from "transaction" t where t."category_id" is not null and t."is_split" = false group by t."category_id" having sum(case when t."amount" > 0 then 1 else 0 end) > sum(case when t."amount" < 0 then 1 else 0 end));`);
    this.addSql(`update "account" set "on_budget" = false where "type" = 'investment';`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "account" drop column "on_budget";`);

    this.addSql(`alter table "category" drop column "kind", drop column "hidden", drop column "rolls_overspending_from", drop column "target_type", drop column "target_amount", drop column "target_date";`);
  }

}
