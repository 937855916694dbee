import { describe, expect, it } from 'vitest';
import { entities } from '../../src/server/db/entities';
import { userDataDocumentSchema } from '../../src/shared/schemas/user-data';

/** Each table that holds a user's data, and the section of the export document (GET /api/export) that carries it. */
const CARRIED: Record<string, string> = {
  account: 'accounts',
  category: 'categories',
  batch: 'batches',
  transaction: 'transactions',
  budget: 'budgets',
  line_item: 'budgets',
  envelope: 'envelopes',
  rule: 'rules',
  schedule: 'schedules',
  schedule_occurrence: 'schedules',
  transfer: 'transfers',
  transfer_candidate: 'transferCandidates',
  plan_assigned: 'plan',
  plan_move: 'plan',
  plan_hold: 'plan',
};

/** Tables with a user_id that the export leaves out, and why. */
const NOT_CARRIED: Record<string, string> = {
  refresh_token: 'sessions end with the server they were opened on',
  sign_in: 'sign-in bookkeeping, not data the user made',
  history_entry: "undo belongs to the database it happened in: the document's leftOut says so",
  history_row: 'the rows of history entries (as history_entry)',
  trashed_transaction: 'the trash empties itself; a restore starts with an empty trash (as history_entry)',
  import_profile:
    "a CSV column mapping is learned again on the next import (the document's importProfiles is reserved)",
  plan_month_sum: "the plan's month sums are derived from the transactions by the database's triggers",
};

describe('export and restore', () => {
  it('carry every table that has a user_id column, or say here why not', () => {
    const userTables = entities
      .filter((entity) => !entity.meta.abstract && 'user' in entity.meta.properties)
      .map((entity) => entity.meta.tableName);
    const unaccounted = userTables.filter((table) => !(table in CARRIED) && !(table in NOT_CARRIED));
    expect(unaccounted, 'add each to the export document (src/shared/schemas/user-data.ts, modules/user-data)').toEqual(
      [],
    );
    const sections = Object.keys(userDataDocumentSchema.shape);
    expect(Object.values(CARRIED).filter((section) => !sections.includes(section))).toEqual([]);
  });
});
