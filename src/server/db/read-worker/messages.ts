/** A statement and its parameters (as better-sqlite3 binds them: no booleans). */
export interface SqlStatement {
  sql: string;
  params: readonly unknown[];
}

/**
 * A counted JSON read: `count` answers one number; over `max` nothing more is read; `rows` answers
 * one row whose one column is the JSON array's bytes (a blob).
 */
export interface CountedJsonRead {
  count: SqlStatement;
  rows: SqlStatement;
  max: number;
}

export interface ReadRequest extends CountedJsonRead {
  id: number;
}

export type ReadAnswer =
  { id: number; total: number; json: Uint8Array | null } | { id: number; error: string; code: string | undefined };
