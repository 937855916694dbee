import { describe, expect, it } from 'vitest';
import { describeDatabase, loadConfig } from '../../src/server/config/config';

/** The startup line names the database (dialect, user, host, port, database) and never a password. */
describe('describeDatabase', () => {
  it.each([
    [{ databaseFile: '/data/budget-tracker.sqlite' }, 'SQLite /data/budget-tracker.sqlite'],
    [
      { databaseFile: 'x', databaseUrl: 'postgres://app:s3cret@db.example:5432/budget' },
      'PostgreSQL app@db.example:5432/budget',
    ],
    [
      { databaseFile: 'x', databaseUrl: 'postgresql://app:s3cret@db/budget?sslmode=require&password=s3cret' },
      'PostgreSQL app@db/budget',
    ],
    [{ databaseFile: 'x', databaseUrl: 'postgres://db.example/budget' }, 'PostgreSQL db.example/budget'],
    [{ databaseFile: 'x', databaseUrl: 'postgres://us%40er:p%40ss@h:1/d' }, 'PostgreSQL us@er@h:1/d'],
  ])('%j -> %s', (config, expected) => {
    const line = describeDatabase(config);
    expect(line).toBe(expected);
    expect(line).not.toContain('s3cret');
  });

  it('takes DATABASE_URL from the environment; unset, SQLite', () => {
    expect(describeDatabase(loadConfig({ DATA_DIR: '/tmp/bt', DATABASE_URL: 'postgres://u:pw@h:5432/d' }))).toBe(
      'PostgreSQL u@h:5432/d',
    );
    expect(describeDatabase(loadConfig({ DATA_DIR: '/tmp/bt' }))).toMatch(/^SQLite \/tmp\/bt\//);
  });
});
