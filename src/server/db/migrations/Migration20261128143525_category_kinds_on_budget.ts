import { Migration } from '@mikro-orm/migrations';

export class Migration20261128143525_category_kinds_on_budget extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table \`category\` add column \`kind\` text not null default 'expense';`);
    this.addSql(`alter table \`category\` add column \`hidden\` integer not null default false;`);
    this.addSql(`alter table \`category\` add column \`rolls_overspending_from\` text null;`);
    this.addSql(`alter table \`category\` add column \`target_type\` text null;`);
    this.addSql(`alter table \`category\` add column \`target_amount\` integer null;`);
    this.addSql(`alter table \`category\` add column \`target_date\` text null;`);

    this.addSql(`alter table \`account\` add column \`on_budget\` integer not null default true;`);

    // A category whose counted transactions are mostly money in is an income category; investment
    // accounts stay off the plan, as new ones are created.
    this.addSql(`update "category" set "kind" = 'income' where "id" in (select t."category_id" from "transaction" t where t."category_id" is not null and t."is_split" = 0 group by t."category_id" having sum(case when t."amount" > 0 then 1 else 0 end) > sum(case when t."amount" < 0 then 1 else 0 end));`);
    this.addSql(`update "account" set "on_budget" = 0 where "type" = 'investment';`);
  }

}
