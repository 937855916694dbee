import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSACTION_TABLE } from '../../src/server/db/sql';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { startServer, type TestServer } from '../helpers/server';

/**
 * Transfers counted by the on/off-plan rule (SQLite in `node`, PostgreSQL in `integration-pg`): a pair
 * between two on-plan accounts or two off-plan ones counts nowhere; a pair between the plan and an
 * off-plan account counts once, on its on-plan side, in the monthly report, the payee report, the
 * budget overview, the plan and the search total. The flags are read when the figures are, so
 * flipping an account's flag changes them with nothing stored changing.
 */
let server: TestServer;
let user: ApiUser;
const accountIds = new Map<string, number>();

const RANGE = 'start_date=2025-09-01&end_date=2025-09-30';
const SALARY = 300_000;
const FOOD = 4_500;
const TO_CARD = 10_000;
const TO_BROKER = 20_000;
const TO_VAULT = 5_000;

async function transfer(fromAccount: string, toAccount: string, amount: number, date: string) {
  ok(await user.post('/api/transfers', { fromAccount, toAccount, amount, date }));
}

beforeAll(async () => {
  server = await startServer();
  user = await signUp(server.url);
  for (const [name, type, onBudget] of [
    ['Checking', 'checking', true],
    ['Card', 'credit', true],
    ['Broker', 'investment', false],
    ['Vault', 'investment', false],
  ] as const) {
    const account = ok(await user.post<{ id: number }>('/api/accounts', { name, type, onBudget }));
    accountIds.set(name, account.id);
  }
  const tx = async (amount: number, description: string, category: string) =>
    ok(
      await user.post('/api/transactions', {
        account: 'Checking',
        amount,
        description,
        category,
        postDate: '2025-09-02',
      }),
    );
  await tx(SALARY, 'ACME PAYROLL', 'Salary');
  await tx(-FOOD, 'GROCER', 'Food');
  await transfer('Checking', 'Card', TO_CARD, '2025-09-05');
  await transfer('Checking', 'Broker', TO_BROKER, '2025-09-06');
  await transfer('Broker', 'Vault', TO_VAULT, '2025-09-07');
  ok(
    await user.post('/api/budgets/save', {
      name: 'September',
      startDate: '2025-09-01',
      endDate: '2025-09-30',
      lineItems: [{ name: 'Food', amount: 10_000, type: 'Variable', relatedCategories: ['Food'] }],
    }),
  );
});
afterAll(async () => {
  await server.close();
});

type Figures = {
  report: { income: number; expenses: number };
  payees: string[];
  overviewTotal: number;
  planUncategorized: { count: number; amount: number };
  search: { net: number; transfersLeftOut: number };
};

async function figures(): Promise<Figures> {
  const [month] = ok(await user.get<{ income: number; expenses: number }[]>(`/api/reports/monthly?${RANGE}`));
  const payees = ok(await user.get<{ payee: string }[]>(`/api/reports/payees?${RANGE}`));
  const [budget] = ok(await user.get<{ id: number }[]>('/api/budgets'));
  const { overview } = ok(await user.get<{ overview: { total: number } }>(`/api/budgets/${budget?.id}/overview`));
  const plan = ok(await user.get<{ uncategorized: { count: number; amount: number } }>('/api/plan/2025-09'));
  const search = ok(await user.get<{ net: number; transfersLeftOut: number }>(`/api/transactions/total?${RANGE}`));
  return {
    report: { income: month?.income ?? 0, expenses: month?.expenses ?? 0 },
    payees: payees.map((p) => p.payee).sort(),
    overviewTotal: overview.total,
    planUncategorized: plan.uncategorized,
    search: { net: search.net, transfersLeftOut: search.transfersLeftOut },
  };
}

async function storedRows(): Promise<unknown[]> {
  return server.sql(
    `select id, account_id, amount, post_date, category_id, transfer_id, is_split from ${TRANSACTION_TABLE}
      where user_id = ? order by id`,
    [user.userId],
  );
}

describe('transfers and the plan', () => {
  it('counts a pair within the plan, or outside it, nowhere and a pair leaving the plan once, as spending', async () => {
    expect(await figures()).toEqual({
      // Checking -> Broker leaves the plan: spending; its Broker side is not income.
      report: { income: SALARY, expenses: FOOD + TO_BROKER },
      payees: ['ACME PAYROLL', 'GROCER', 'Transfer to Broker'],
      overviewTotal: SALARY - FOOD - TO_BROKER,
      planUncategorized: { count: 1, amount: -TO_BROKER },
      // Left out: both sides of Checking -> Card and of Broker -> Vault, and the Broker side of Checking -> Broker.
      search: { net: SALARY - FOOD - TO_BROKER, transfersLeftOut: 5 },
    });
  });

  it('reads the flags when it counts: putting Broker on the plan moves the spending to Broker -> Vault', async () => {
    const before = await storedRows();
    ok(await user.put(`/api/accounts/${accountIds.get('Broker')}`, { onBudget: true }));
    try {
      expect(await storedRows()).toEqual(before);
      expect(await figures()).toEqual({
        report: { income: SALARY, expenses: FOOD + TO_VAULT },
        payees: ['ACME PAYROLL', 'GROCER', 'Transfer to Vault'],
        overviewTotal: SALARY - FOOD - TO_VAULT,
        planUncategorized: { count: 1, amount: -TO_VAULT },
        search: { net: SALARY - FOOD - TO_VAULT, transfersLeftOut: 5 },
      });
    } finally {
      ok(await user.put(`/api/accounts/${accountIds.get('Broker')}`, { onBudget: false }));
    }
    expect((await figures()).report).toEqual({ income: SALARY, expenses: FOOD + TO_BROKER });
  });

  it('answers each row with the flags the rule reads', async () => {
    const rows = ok(
      await user.get<
        { account: string; amount: number; accountOnBudget: boolean; transferCounterpartOnBudget: boolean }[]
      >(`/api/transactions?${RANGE}`),
    );
    const flags = rows
      .filter((row) => row.amount === TO_BROKER || row.amount === -TO_BROKER)
      .map(({ account, accountOnBudget, transferCounterpartOnBudget }) => ({
        account,
        accountOnBudget,
        transferCounterpartOnBudget,
      }));
    expect(flags.sort((a, b) => a.account.localeCompare(b.account))).toEqual([
      { account: 'Broker', accountOnBudget: false, transferCounterpartOnBudget: true },
      { account: 'Checking', accountOnBudget: true, transferCounterpartOnBudget: false },
    ]);
  });
});
