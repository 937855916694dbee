import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserDataDocument } from '../../src/shared/schemas/user-data';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { startServer, type TestServer } from '../helpers/server';

/**
 * Transfers between accounts of two currencies keep both amounts; the rate they imply must lie within
 * 5% of the day's rate, whether the transfer is entered or two imported rows are linked, and the
 * answer shows it. Each side keeps its own amount when the other is edited.
 */
let server: TestServer;
let user: ApiUser;

interface Side {
  id: number;
  amount: number;
  currency: string;
  account: string;
}
interface Transfer {
  transferId: number;
  from: Side;
  to: Side;
  rate: string | null;
}

beforeAll(async () => {
  server = await startServer();
  user = await signUp(server.url);
  ok(await user.put('/api/auth/home-currency', { homeCurrency: 'EUR' }));
  ok(await user.post('/api/accounts', { name: 'Euro', type: 'checking', currency: 'EUR' }));
  ok(await user.post('/api/accounts', { name: 'Euro savings', type: 'savings', currency: 'EUR' }));
  ok(await user.post('/api/accounts', { name: 'Pounds', type: 'checking', currency: 'GBP' }));
  ok(await user.put('/api/rates', { date: '2024-03-01', base: 'EUR', quote: 'GBP', rate: '0.85' }));
});
afterAll(async () => {
  await server.close();
});

describe('a transfer across currencies', () => {
  it('takes the arriving amount from the day’s rate, or checks the one given against it', async () => {
    const converted = ok<Transfer>(
      await user.post('/api/transfers', {
        fromAccount: 'Euro',
        toAccount: 'Pounds',
        amount: 10000,
        date: '2024-03-01',
      }),
    );
    expect([converted.from.amount, converted.from.currency, converted.to.amount, converted.to.currency]).toEqual([
      -10000,
      'EUR',
      8500,
      'GBP',
    ]);
    expect(converted.rate).toBe('0.85');
    // Two days later the rate of 1 March still serves; 86.00 pounds for 100 euros is 1.2% off it.
    const given = ok<Transfer>(
      await user.post('/api/transfers', {
        fromAccount: 'Euro',
        toAccount: 'Pounds',
        amount: 10000,
        toAmount: 8600,
        date: '2024-03-03',
      }),
    );
    expect([given.to.amount, given.rate]).toEqual([8600, '0.86']);
  });

  it('refuses amounts far off the day’s rate, a day with no rate, and two amounts in one currency', async () => {
    const before = ok<unknown[]>(await user.get('/api/transactions?start_date=2024-01-01&end_date=2024-12-31')).length;
    const far = await user.post<{ error: string }>('/api/transfers', {
      fromAccount: 'Euro',
      toAccount: 'Pounds',
      amount: 10000,
      toAmount: 9500,
      date: '2024-03-01',
    });
    expect(far.status).toBe(400);
    expect(far.body.error).toBe(
      "The two amounts imply 1 EUR = 0.95 GBP, 11.8% off the day's rate of 0.85; a transfer's sides may differ from it by at most 5%",
    );
    const noRate = await user.post<{ error: string }>('/api/transfers', {
      fromAccount: 'Euro',
      toAccount: 'Pounds',
      amount: 10000,
      date: '2024-06-01',
    });
    expect(noRate.status).toBe(422);
    expect(noRate.body.error).toMatch(/^No EUR to GBP rate on 2024-06-01 or in the 7 days before/);
    const same = await user.post<{ error: string }>('/api/transfers', {
      fromAccount: 'Euro',
      toAccount: 'Euro savings',
      amount: 10000,
      toAmount: 9000,
      date: '2024-03-01',
    });
    expect(same.status).toBe(400);
    expect(same.body.error).toMatch(/both in EUR; the same amount arrives as leaves/);
    expect(ok<unknown[]>(await user.get('/api/transactions?start_date=2024-01-01&end_date=2024-12-31'))).toHaveLength(
      before,
    );
  });

  it('links two rows of two currencies at about the day’s rate, and each keeps its amount when the other changes', async () => {
    const out = ok<{ id: number }>(
      await user.post('/api/transactions', {
        postDate: '2024-03-01',
        description: 'To pounds',
        amount: -5000,
        account: 'Euro',
      }),
    );
    const far = ok<{ id: number }>(
      await user.post('/api/transactions', {
        postDate: '2024-03-02',
        description: 'In',
        amount: 6000,
        account: 'Pounds',
      }),
    );
    const near = ok<{ id: number }>(
      await user.post('/api/transactions', {
        postDate: '2024-03-02',
        description: 'In',
        amount: 4250,
        account: 'Pounds',
      }),
    );
    const refused = await user.post<{ error: string }>('/api/transfers/link', { transactionIds: [out.id, far.id] });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(/^The two amounts imply 1 EUR = 1\.2 GBP/);
    const linked = ok<Transfer>(await user.post('/api/transfers/link', { transactionIds: [near.id, out.id] }));
    expect([linked.from.id, linked.to.id, linked.rate]).toEqual([out.id, near.id, '0.85']);

    ok(await user.put(`/api/transactions/${out.id}`, { amount: -5100 }));
    const after = ok<Transfer>(await user.get(`/api/transfers/${linked.transferId}`));
    expect([after.from.amount, after.to.amount]).toEqual([-5100, 4250]);
    // A transfer is money moved, in no report: March holds only the row left unlinked, 60.00 pounds at 0.85.
    const march = ok<{ month: string; income: number; expenses: number }[]>(
      await user.get('/api/reports/monthly?start_date=2024-03-01&end_date=2024-03-31'),
    );
    expect(march[0]).toMatchObject({ income: 7059, expenses: 0 });
  });

  it('travels in the export and comes back from a restore', async () => {
    const doc = ok<UserDataDocument>(await user.get('/api/export'));
    expect(doc.transfers).toHaveLength(3);
    const copy = await signUp(server.url);
    const res = await copy.post('/api/import', doc);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const again = ok<UserDataDocument>(await copy.get('/api/export'));
    expect(again.transfers).toHaveLength(3);
  });
});
