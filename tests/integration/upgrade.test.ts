import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrationsList } from '../../src/server/db/migrations';
import { ok } from '../helpers/api';
import { rest } from '../helpers/http';
import { startServer } from '../helpers/server';
import { collectFigures, type UserFigures } from '../helpers/upgrade-figures';

/**
 * Upgrades keep data: every release left a database it made in tests/fixtures/upgrade
 * (scripts/upgrade-fixture.ts) with the figures it showed. The current code starts on a copy,
 * runs its migrations, and must show the same counts, sums, splits, batches, budget overviews
 * and envelopes to the same users.
 */
const dir = path.resolve('tests/fixtures/upgrade');
const releases = readdirSync(dir)
  .filter((file) => file.endsWith('.sqlite'))
  .map((file) => file.replace(/\.sqlite$/, ''));

interface Expected {
  release: string;
  migrations: string[];
  users: { username: string; password: string }[];
  figures: UserFigures[];
}

/**
 * The kind each category of the old database should get: income when more of its counted rows
 * (split parts, not parents) are money in than money out, else expense. By user and name.
 */
function expectedKinds(file: string): Map<string, string> {
  const db = new Database(file, { readonly: true });
  try {
    const rows = db
      .prepare(
        `select u.username, c.name, t.amount from category c join "user" u on u.id = c.user_id
           left join "transaction" t on t.category_id = c.id and t.is_split = 0`,
      )
      .all() as { username: string; name: string; amount: number | null }[];
    const balance = new Map<string, number>();
    for (const row of rows) {
      const key = `${row.username}/${row.name}`;
      balance.set(key, (balance.get(key) ?? 0) + Math.sign(row.amount ?? 0));
    }
    return new Map([...balance].map(([key, lean]) => [key, lean > 0 ? 'income' : 'expense']));
  } finally {
    db.close();
  }
}

describe('upgrading a database made by an earlier release', () => {
  it('has at least one release fixture', () => {
    expect(releases.length).toBeGreaterThan(0);
  });

  it.each(releases)('%s: migrations run and every figure is unchanged', async (release) => {
    const expected = JSON.parse(readFileSync(path.join(dir, `${release}.json`), 'utf8')) as Expected;
    const work = mkdtempSync(path.join(os.tmpdir(), 'bt-upgrade-'));
    const file = path.join(work, 'budget-tracker.sqlite');
    copyFileSync(path.join(dir, `${release}.sqlite`), file);
    const upgraded = await startServer({ DATABASE_FILE: file });
    try {
      const db = new Database(file, { readonly: true });
      try {
        const applied = (
          db.prepare('select name from mikro_orm_migrations order by id').all() as { name: string }[]
        ).map((m) => m.name);
        expect(applied.slice(0, expected.migrations.length)).toEqual(expected.migrations);
        expect(applied).toEqual(migrationsList.map((m) => m.name));
        expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(db.pragma('foreign_key_check')).toEqual([]);
      } finally {
        db.close();
      }
      const kinds = expectedKinds(path.join(dir, `${release}.sqlite`));
      for (const user of expected.users) {
        const login = ok(await rest(upgraded.url, 'POST', '/api/auth/login', { body: user }));
        const figures = await collectFigures(user.username, async (url) =>
          ok(await rest(upgraded.url, 'GET', url, { token: login.accessToken })),
        );
        const recorded = expected.figures.find((f) => f.username === user.username);
        expect(figures).toEqual(recorded);
        // Balances became opening balances plus counted rows: each register still starts from the recorded balance.
        for (const account of recorded?.accounts ?? []) {
          const rows = ok<{ runningBalance: number }[]>(
            await rest(upgraded.url, 'GET', `/api/accounts/${account.id}/register`, { token: login.accessToken }),
          );
          expect(rows[0]?.runningBalance ?? account.balance).toBe(account.balance);
        }
        const accounts = ok<{ openingBalance: number; openingDate: string; balance: number }[]>(
          await rest(upgraded.url, 'GET', '/api/accounts', { token: login.accessToken }),
        );
        for (const account of accounts) expect(account.openingDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        // Accounts from before currencies are in the default currency, and their owner is asked once to choose.
        expect(ok(await rest(upgraded.url, 'GET', '/api/auth/me', { token: login.accessToken }))).toMatchObject({
          homeCurrency: 'USD',
          homeCurrencyChosen: false,
        });
        const currencies = ok<{ currency: string }[]>(
          await rest(upgraded.url, 'GET', '/api/accounts', { token: login.accessToken }),
        ).map((a) => a.currency);
        expect(new Set(currencies)).toEqual(new Set(currencies.length ? ['USD'] : []));
        const token = login.accessToken;
        const categories = ok<{ name: string; kind: string; hidden: boolean }[]>(
          await rest(upgraded.url, 'GET', '/api/categories', { token }),
        );
        for (const category of categories) {
          expect(category.hidden).toBe(false);
          expect([category.name, category.kind]).toEqual([
            category.name,
            kinds.get(`${user.username}/${category.name}`),
          ]);
        }
        const onPlan = ok<{ type: string; onBudget: boolean }[]>(
          await rest(upgraded.url, 'GET', '/api/accounts', { token }),
        );
        for (const account of onPlan) expect(account.onBudget).toBe(account.type !== 'investment');
      }
    } finally {
      await upgraded.close();
      rmSync(work, { recursive: true, force: true });
    }
  });
});
