import { Migration } from '@mikro-orm/migrations';

export class Migration20261128161909_plan extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table \`plan_hold\` (\`id\` integer not null primary key autoincrement, \`user_id\` integer not null, \`month\` text not null, \`amount\` integer not null, constraint \`plan_hold_user_id_foreign\` foreign key(\`user_id\`) references \`user\`(\`id\`) on delete cascade on update cascade);`);
    this.addSql(`create unique index \`plan_hold_user_month_unique\` on \`plan_hold\` (\`user_id\`, \`month\`);`);

    this.addSql(`create table \`plan_move\` (\`id\` integer not null primary key autoincrement, \`user_id\` integer not null, \`month\` text not null, \`from_category_id\` integer null, \`to_category_id\` integer null, \`amount\` integer not null, \`date\` text not null, \`created_at\` text not null, constraint \`plan_move_user_id_foreign\` foreign key(\`user_id\`) references \`user\`(\`id\`) on delete cascade on update cascade, constraint \`plan_move_from_category_id_foreign\` foreign key(\`from_category_id\`) references \`category\`(\`id\`) on delete cascade on update cascade, constraint \`plan_move_to_category_id_foreign\` foreign key(\`to_category_id\`) references \`category\`(\`id\`) on delete cascade on update cascade);`);
    this.addSql(`create index \`plan_move_from_category_id_index\` on \`plan_move\` (\`from_category_id\`);`);
    this.addSql(`create index \`plan_move_to_category_id_index\` on \`plan_move\` (\`to_category_id\`);`);
    this.addSql(`create index \`plan_move_user_month_index\` on \`plan_move\` (\`user_id\`, \`month\`);`);

    this.addSql(`create table \`plan_assigned\` (\`id\` integer not null primary key autoincrement, \`user_id\` integer not null, \`category_id\` integer not null, \`month\` text not null, \`amount\` integer not null, constraint \`plan_assigned_user_id_foreign\` foreign key(\`user_id\`) references \`user\`(\`id\`) on delete cascade on update cascade, constraint \`plan_assigned_category_id_foreign\` foreign key(\`category_id\`) references \`category\`(\`id\`) on delete cascade on update cascade);`);
    this.addSql(`create index \`plan_assigned_user_month_index\` on \`plan_assigned\` (\`user_id\`, \`month\`);`);
    this.addSql(`create unique index \`plan_assigned_category_month_unique\` on \`plan_assigned\` (\`category_id\`, \`month\`);`);
  }

}
