import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCountedTransaction, isInternalTransfer } from '../../src/shared/transactions/counted';
import { countedRowSql, internalTransferSql, TRANSACTION_TABLE } from '../../src/server/db/sql';
import type { TransactionDto } from '../../src/shared/schemas/transactions';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { startServer, type TestServer } from '../helpers/server';

/**
 * One "counted row" rule: the SQL the reports and registers aggregate with selects exactly the
 * rows the shared function counts (plain rows, split parts, a split parent whose parts are gone),
 * and every total agrees with the rows it stands for.
 */
let server: TestServer;
let user: ApiUser;

beforeAll(async () => {
  server = await startServer();
  user = await signUp(server.url);
  ok(await user.post('/api/accounts', { name: 'Main', type: 'checking', balance: 0 }));
  const add = async (postDate: string, amount: number, category?: string) =>
    ok(
      await user.post('/api/transactions', {
        postDate,
        description: `r${amount}`,
        amount,
        account: 'Main',
        ...(category ? { category } : {}),
      }),
    ).id as number;
  await add('2024-01-01', 1000, 'Pay');
  await add('2024-01-02', -300, 'Food');
  const parent = await add('2024-01-03', -900, 'Food');
  ok(
    await user.post(`/api/transactions/${parent}/split`, {
      splits: [
        { amount: -500, category: 'Food' },
        { amount: -400, category: 'Fun' },
      ],
    }),
  );
  const orphan = await add('2024-02-01', -70, 'Fun');
  // A parent whose parts were lost (what fix-split-status repairs) is still not counted.
  await server.sql(`update ${TRANSACTION_TABLE} set is_split = true where id = ?`, [orphan], 'run');
  await add('2024-02-02', 20);
});
afterAll(async () => {
  await server.close();
});

describe('the counted-row rule', () => {
  it('selects the same rows in SQL as in the shared function', async () => {
    const all = ok<TransactionDto[]>(await user.get('/api/transactions?start_date=2024-01-01&end_date=2024-12-31'));
    const rows = await server.sql<{ id: number }>(
      `select t.id from ${TRANSACTION_TABLE} t where t.user_id = ? and ${countedRowSql('t')} order by t.id`,
      [user.userId],
    );
    expect(rows.map((r) => r.id)).toEqual(
      all
        .filter(isCountedTransaction)
        .map((t) => t.id)
        .sort((a, b) => a - b),
    );
    expect(all.filter((t) => !isCountedTransaction(t))).toHaveLength(2);
  });

  it('makes the report, the register and a counted search add up to the same cents', async () => {
    const all = ok<TransactionDto[]>(await user.get('/api/transactions?start_date=2024-01-01&end_date=2024-12-31'));
    const counted = all.filter(isCountedTransaction);
    const net = counted.reduce((sum, t) => sum + t.amount, 0);
    const report = ok<{ net: number }[]>(
      await user.get('/api/reports/monthly?start_date=2024-01-01&end_date=2024-02-29'),
    );
    expect(report.reduce((sum, r) => sum + r.net, 0)).toBe(net);
    const searched = ok<TransactionDto[]>(
      await user.get('/api/transactions?start_date=2024-01-01&end_date=2024-12-31&counted=true'),
    );
    expect(searched.map((t) => t.id).sort()).toEqual(counted.map((t) => t.id).sort());
    const account = ok(await user.get('/api/accounts'))[0];
    const register = ok<{ runningBalance: number; amount: number }[]>(
      await user.get(`/api/accounts/${account.id}/register`),
    );
    // The account opens at 0: its balance is the counted rows' sum, and the oldest row starts from 0.
    expect(register[0]?.runningBalance).toBe(net);
    const oldest = register.at(-1)!;
    expect(oldest.runningBalance - oldest.amount).toBe(0);
  });
});

describe('the internal-transfer rule', () => {
  it('selects the same linked sides in SQL as in the shared function, for every pair of on-plan flags', async () => {
    const owner = await signUp(server.url);
    for (const [name, onBudget] of [
      ['On A', true],
      ['On B', true],
      ['Off A', false],
      ['Off B', false],
    ] as const)
      ok(await owner.post('/api/accounts', { name, type: 'checking', onBudget }));
    const pairs = [
      ['On A', 'On B'],
      ['On A', 'Off A'],
      ['Off A', 'On B'],
      ['Off A', 'Off B'],
    ];
    for (const [fromAccount, toAccount] of pairs)
      ok(await owner.post('/api/transfers', { fromAccount, toAccount, amount: 100, date: '2024-03-01' }));
    ok(
      await owner.post('/api/transactions', {
        account: 'On A',
        amount: -5,
        description: 'plain',
        postDate: '2024-03-01',
      }),
    );
    const all = ok<TransactionDto[]>(await owner.get('/api/transactions?start_date=2024-01-01&end_date=2024-12-31'));
    const rows = await server.sql<{ id: number }>(
      `select t.id from ${TRANSACTION_TABLE} t where t.user_id = ? and ${internalTransferSql('t')} order by t.id`,
      [owner.userId],
    );
    const internal = all.filter(isInternalTransfer).map((t) => t.id);
    expect(rows.map((r) => r.id)).toEqual(internal.sort((a, b) => a - b));
    // Both sides of the on-on and off-off pairs, and the off-plan side of each mixed pair.
    expect(internal).toHaveLength(6);
  });
});
