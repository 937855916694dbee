import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { sqliteParams } from '../../src/server/db/sql';

describe('sqliteParams', () => {
  it('answers parameters without a boolean unchanged, bound as one array', () => {
    const params = Array.from({ length: 1200 }, (_, i) => (i % 3 === 0 ? `text ${i}` : i % 3 === 1 ? i : null));
    expect(sqliteParams(params)).toEqual(params);
    const db = new Database(':memory:');
    db.exec('create table t (a, b, c)');
    db.prepare(`insert into t values ${Array.from({ length: 400 }, () => '(?, ?, ?)').join(', ')}`).run(
      sqliteParams(params),
    );
    expect(db.prepare('select count(*) as n, sum(b) as b from t').get()).toEqual({ n: 400, b: (400 * (1 + 1198)) / 2 });
    db.close();
  });

  it('stores booleans as 1 and 0 (a copy, the caller keeps its values)', () => {
    const params = ['x', true, false, null];
    expect(sqliteParams(params)).toEqual(['x', 1, 0, null]);
    expect(params).toEqual(['x', true, false, null]);
  });
});
