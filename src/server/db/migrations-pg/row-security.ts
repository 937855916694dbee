import type { Migration } from '@mikro-orm/migrations';

/**
 * PostgreSQL row-level security for a user-owned table (one with a `user_id` column): rows are
 * visible and writable only while the transaction's `app.user_id` setting names their user
 * (set by withUserScope in src/server/db/sql.ts from the signed-in user). FORCE makes the
 * policy bind the table's owner too, which the app's role is; a superuser still bypasses it, so
 * the app must not connect as one. Dropping the table drops its policy.
 */
export function rowSecuritySql(table: string): string[] {
  const mine = `"user_id" = nullif(current_setting('app.user_id', true), '')::int`;
  return [
    `alter table "${table}" enable row level security;`,
    `alter table "${table}" force row level security;`,
    `create policy "${table}_own_rows" on "${table}" using (${mine}) with check (${mine});`,
  ];
}

/**
 * The one call a PostgreSQL migration makes for each user-owned table it creates
 * (`npm run db:migration` writes it for every new table with a `user_id` column).
 */
export function addRowSecurity(migration: Migration, table: string): void {
  for (const sql of rowSecuritySql(table)) migration.addSql(sql);
}

/**
 * fold(): Unicode case folding of the NFC form with ICU's root locale, whatever the database's
 * own collation, so a search finds the same rows as on SQLite (JavaScript's toLowerCase there).
 */
export const FOLD_FUNCTION_SQL = `create or replace function fold(text) returns text
  language sql immutable strict parallel safe
  return lower(normalize($1, NFC) collate "und-x-icu");`;
