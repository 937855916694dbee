// Written by scripts/migration-lists.ts (npm run db:migration) from the migration files: do not edit.
import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122230628_init } from './Migration20261122230628_init';
import { Migration20261123120551_drop_redundant_indexes } from './Migration20261123120551_drop_redundant_indexes';
import { Migration20261123183932_reserve_uncategorized } from './Migration20261123183932_reserve_uncategorized';
import { Migration20261123184245_import_profiles_and_fitid } from './Migration20261123184245_import_profiles_and_fitid';
import { Migration20261123184907_report_covering_index } from './Migration20261123184907_report_covering_index';
import { Migration20261123185740_sign_ins_auth_failures_instance_claims } from './Migration20261123185740_sign_ins_auth_failures_instance_claims';
import { Migration20261123193538_register_covering_index } from './Migration20261123193538_register_covering_index';
import { Migration20261125153006_category_source_and_apply_suggestions } from './Migration20261125153006_category_source_and_apply_suggestions';
import { Migration20261125155022_rules_and_bank_description } from './Migration20261125155022_rules_and_bank_description';
import { Migration20261126230800_partial_parent_index } from './Migration20261126230800_partial_parent_index';
import { Migration20261127050000_drop_transaction_category_index } from './Migration20261127050000_drop_transaction_category_index';
import { Migration20261127053000_description_edits } from './Migration20261127053000_description_edits';
import { Migration20261128111023_schedules } from './Migration20261128111023_schedules';
import { Migration20261128143518_opening_balance } from './Migration20261128143518_opening_balance';
import { Migration20261128143525_category_kinds_on_budget } from './Migration20261128143525_category_kinds_on_budget';
import { Migration20261128143616_transfers } from './Migration20261128143616_transfers';
import { Migration20261128143618_currencies } from './Migration20261128143618_currencies';
import { Migration20261128144053_history } from './Migration20261128144053_history';
import { Migration20261128152512_two_factor_and_sign_in_details } from './Migration20261128152512_two_factor_and_sign_in_details';
import { Migration20261128153716_rule_names } from './Migration20261128153716_rule_names';
import { Migration20261128155731_exchange_rates } from './Migration20261128155731_exchange_rates';
import { Migration20261128160946_memo_cleared } from './Migration20261128160946_memo_cleared';
import { Migration20261128161909_plan } from './Migration20261128161909_plan';
import { Migration20261128205507_plan_month_sums } from './Migration20261128205507_plan_month_sums';
import { Migration20261128234500_retention_settings } from './Migration20261128234500_retention_settings';

/** Every SQLite migration, oldest first. */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261122230628_init', class: Migration20261122230628_init },
  { name: 'Migration20261123120551_drop_redundant_indexes', class: Migration20261123120551_drop_redundant_indexes },
  { name: 'Migration20261123183932_reserve_uncategorized', class: Migration20261123183932_reserve_uncategorized },
  { name: 'Migration20261123184245_import_profiles_and_fitid', class: Migration20261123184245_import_profiles_and_fitid },
  { name: 'Migration20261123184907_report_covering_index', class: Migration20261123184907_report_covering_index },
  { name: 'Migration20261123185740_sign_ins_auth_failures_instance_claims', class: Migration20261123185740_sign_ins_auth_failures_instance_claims },
  { name: 'Migration20261123193538_register_covering_index', class: Migration20261123193538_register_covering_index },
  { name: 'Migration20261125153006_category_source_and_apply_suggestions', class: Migration20261125153006_category_source_and_apply_suggestions },
  { name: 'Migration20261125155022_rules_and_bank_description', class: Migration20261125155022_rules_and_bank_description },
  { name: 'Migration20261126230800_partial_parent_index', class: Migration20261126230800_partial_parent_index },
  { name: 'Migration20261127050000_drop_transaction_category_index', class: Migration20261127050000_drop_transaction_category_index },
  { name: 'Migration20261127053000_description_edits', class: Migration20261127053000_description_edits },
  { name: 'Migration20261128111023_schedules', class: Migration20261128111023_schedules },
  { name: 'Migration20261128143518_opening_balance', class: Migration20261128143518_opening_balance },
  { name: 'Migration20261128143525_category_kinds_on_budget', class: Migration20261128143525_category_kinds_on_budget },
  { name: 'Migration20261128143616_transfers', class: Migration20261128143616_transfers },
  { name: 'Migration20261128143618_currencies', class: Migration20261128143618_currencies },
  { name: 'Migration20261128144053_history', class: Migration20261128144053_history },
  { name: 'Migration20261128152512_two_factor_and_sign_in_details', class: Migration20261128152512_two_factor_and_sign_in_details },
  { name: 'Migration20261128153716_rule_names', class: Migration20261128153716_rule_names },
  { name: 'Migration20261128155731_exchange_rates', class: Migration20261128155731_exchange_rates },
  { name: 'Migration20261128160946_memo_cleared', class: Migration20261128160946_memo_cleared },
  { name: 'Migration20261128161909_plan', class: Migration20261128161909_plan },
  { name: 'Migration20261128205507_plan_month_sums', class: Migration20261128205507_plan_month_sums },
  { name: 'Migration20261128234500_retention_settings', class: Migration20261128234500_retention_settings },
];
