// Written by scripts/migration-lists.ts (npm run db:migration) from the migration files: do not edit.
import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261125153946_init } from './Migration20261125153946_init';
import { Migration20261125184046_rules_category_source_bank_description } from './Migration20261125184046_rules_category_source_bank_description';
import { Migration20261126230800_partial_parent_index } from './Migration20261126230800_partial_parent_index';
import { Migration20261127021900_bigint_money } from './Migration20261127021900_bigint_money';
import { Migration20261127050000_drop_transaction_category_index } from './Migration20261127050000_drop_transaction_category_index';
import { Migration20261127053000_description_edits } from './Migration20261127053000_description_edits';
import { Migration20261128111024_schedules } from './Migration20261128111024_schedules';
import { Migration20261128143519_opening_balance } from './Migration20261128143519_opening_balance';
import { Migration20261128143525_category_kinds_on_budget } from './Migration20261128143525_category_kinds_on_budget';
import { Migration20261128143617_transfers } from './Migration20261128143617_transfers';
import { Migration20261128143619_currencies } from './Migration20261128143619_currencies';
import { Migration20261128144055_history } from './Migration20261128144055_history';
import { Migration20261128152517_two_factor_and_sign_in_details } from './Migration20261128152517_two_factor_and_sign_in_details';
import { Migration20261128153719_rule_names } from './Migration20261128153719_rule_names';
import { Migration20261128155734_exchange_rates } from './Migration20261128155734_exchange_rates';
import { Migration20261128160950_memo_cleared } from './Migration20261128160950_memo_cleared';
import { Migration20261128161912_plan } from './Migration20261128161912_plan';
import { Migration20261128205508_plan_month_sums } from './Migration20261128205508_plan_month_sums';
import { Migration20261128234501_retention_settings } from './Migration20261128234501_retention_settings';

/** Every PostgreSQL migration, oldest first. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261125153946_init', class: Migration20261125153946_init },
  { name: 'Migration20261125184046_rules_category_source_bank_description', class: Migration20261125184046_rules_category_source_bank_description },
  { name: 'Migration20261126230800_partial_parent_index', class: Migration20261126230800_partial_parent_index },
  { name: 'Migration20261127021900_bigint_money', class: Migration20261127021900_bigint_money },
  { name: 'Migration20261127050000_drop_transaction_category_index', class: Migration20261127050000_drop_transaction_category_index },
  { name: 'Migration20261127053000_description_edits', class: Migration20261127053000_description_edits },
  { name: 'Migration20261128111024_schedules', class: Migration20261128111024_schedules },
  { name: 'Migration20261128143519_opening_balance', class: Migration20261128143519_opening_balance },
  { name: 'Migration20261128143525_category_kinds_on_budget', class: Migration20261128143525_category_kinds_on_budget },
  { name: 'Migration20261128143617_transfers', class: Migration20261128143617_transfers },
  { name: 'Migration20261128143619_currencies', class: Migration20261128143619_currencies },
  { name: 'Migration20261128144055_history', class: Migration20261128144055_history },
  { name: 'Migration20261128152517_two_factor_and_sign_in_details', class: Migration20261128152517_two_factor_and_sign_in_details },
  { name: 'Migration20261128153719_rule_names', class: Migration20261128153719_rule_names },
  { name: 'Migration20261128155734_exchange_rates', class: Migration20261128155734_exchange_rates },
  { name: 'Migration20261128160950_memo_cleared', class: Migration20261128160950_memo_cleared },
  { name: 'Migration20261128161912_plan', class: Migration20261128161912_plan },
  { name: 'Migration20261128205508_plan_month_sums', class: Migration20261128205508_plan_month_sums },
  { name: 'Migration20261128234501_retention_settings', class: Migration20261128234501_retention_settings },
];
