// Written by scripts/migration-lists.ts (npm run db:migration) from the migration files: do not edit.

/**
 * The name of every committed migration, per dialect, oldest first: the names migrations/index.ts and
 * migrations-pg/index.ts list. Start-up compares them with the names the database has applied, so on a
 * current database the migration runner (and every migration's code) is never loaded.
 */
export const migrationNames = {
  sqlite: [
    'Migration20261122230628_init',
    'Migration20261123120551_drop_redundant_indexes',
    'Migration20261123183932_reserve_uncategorized',
    'Migration20261123184245_import_profiles_and_fitid',
    'Migration20261123184907_report_covering_index',
    'Migration20261123185740_sign_ins_auth_failures_instance_claims',
    'Migration20261123193538_register_covering_index',
    'Migration20261125153006_category_source_and_apply_suggestions',
    'Migration20261125155022_rules_and_bank_description',
    'Migration20261126230800_partial_parent_index',
    'Migration20261127050000_drop_transaction_category_index',
    'Migration20261127053000_description_edits',
    'Migration20261128111023_schedules',
    'Migration20261128143518_opening_balance',
    'Migration20261128143525_category_kinds_on_budget',
    'Migration20261128143616_transfers',
    'Migration20261128143618_currencies',
    'Migration20261128144053_history',
    'Migration20261128152512_two_factor_and_sign_in_details',
    'Migration20261128153716_rule_names',
    'Migration20261128155731_exchange_rates',
    'Migration20261128160946_memo_cleared',
    'Migration20261128161909_plan',
    'Migration20261128205507_plan_month_sums',
    'Migration20261128234500_retention_settings',
  ],
  postgresql: [
    'Migration20261125153946_init',
    'Migration20261125184046_rules_category_source_bank_description',
    'Migration20261126230800_partial_parent_index',
    'Migration20261127021900_bigint_money',
    'Migration20261127050000_drop_transaction_category_index',
    'Migration20261127053000_description_edits',
    'Migration20261128111024_schedules',
    'Migration20261128143519_opening_balance',
    'Migration20261128143525_category_kinds_on_budget',
    'Migration20261128143617_transfers',
    'Migration20261128143619_currencies',
    'Migration20261128144055_history',
    'Migration20261128152517_two_factor_and_sign_in_details',
    'Migration20261128153719_rule_names',
    'Migration20261128155734_exchange_rates',
    'Migration20261128160950_memo_cleared',
    'Migration20261128161912_plan',
    'Migration20261128205508_plan_month_sums',
    'Migration20261128234501_retention_settings',
  ],
} as const satisfies Record<'sqlite' | 'postgresql', readonly string[]>;
