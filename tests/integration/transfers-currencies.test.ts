import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserDataDocument } from '../../src/shared/schemas/user-data';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

/**
 * Transfers between accounts of two currencies keep both amounts; the rate they imply must lie within
 * 5% of the day's rate, whether the transfer is entered or two imported rows are linked, and the
 * answer shows it. Each side keeps its own amount when the other is edited. An import offers (never
 * links) the pairs across currencies whose amounts imply about the day's rate.
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

describe('an import across currencies', () => {
  interface Offer {
    id: number;
    score: number;
    reason: string;
    from: { id: number; amount: number; account: string };
    to: { id: number; amount: number; account: string };
  }
  interface Uploaded {
    transfers: {
      linkedCount: number;
      offeredCount: number;
      offered: { fromId: number; toId: number; reason: string }[];
    };
  }

  async function household() {
    const person = await signUp(server.url);
    ok(await person.put('/api/auth/home-currency', { homeCurrency: 'EUR' }));
    for (const [name, currency] of [
      ['Euro', 'EUR'],
      ['Pounds', 'GBP'],
      ['Yen', 'JPY'],
    ])
      ok(await person.post('/api/accounts', { name, type: 'checking', currency }));
    for (const [date, gbp, jpy] of [
      ['2024-04-01', '0.85', '160'],
      ['2024-04-02', '0.852', '161'],
    ]) {
      ok(await person.put('/api/rates', { date, base: 'EUR', quote: 'GBP', rate: gbp }));
      ok(await person.put('/api/rates', { date, base: 'EUR', quote: 'JPY', rate: jpy }));
    }
    const add = async (account: string, postDate: string, amount: number, description: string) =>
      ok<{ id: number }>(await person.post('/api/transactions', { postDate, description, amount, account })).id;
    return { person, add };
  }

  function upload(person: ApiUser, csv: string, account: string) {
    const body = new FormData();
    body.append('file', new Blob([csv]), 'statement.csv');
    body.append('account', account);
    return rest<Uploaded>(server.url, 'POST', '/api/upload', { token: person.token, body });
  }

  it('offers a pair whose amounts imply about the day’s rate, and accepting it links them with that rate', async () => {
    const { person, add } = await household();
    const arrived = await add('Pounds', '2024-04-03', 8520, 'FROM EURO ACCOUNT');
    // 99.00 pounds for 100 euros is 16% off the rate: no offer for it.
    await add('Pounds', '2024-04-03', 9900, 'REFUND');
    // Money out of both sides is no transfer.
    await add('Pounds', '2024-04-02', -8520, 'SHOP');
    const uploaded = await upload(
      person,
      'Date,Description,Amount\n2024-04-02,TO POUNDS,-100.00\n2024-04-02,GROCER,-85.20\n2024-04-04,SALARY,2500.00\n',
      'Euro',
    );
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
    expect(uploaded.body.transfers).toMatchObject({ linkedCount: 0, offeredCount: 1 });
    const offers = ok<Offer[]>(await person.get('/api/transfers/candidates'));
    expect(offers).toHaveLength(1);
    const [offer] = offers as [Offer];
    expect([offer.from.amount, offer.from.account, offer.to.id, offer.to.account]).toEqual([
      -10000,
      'Euro',
      arrived,
      'Pounds',
    ]);
    expect(offer.reason).toBe(
      "1 day apart; the amounts imply 1 EUR = 0.852 GBP, the day's rate; 'TO POUNDS' names Pounds; 'FROM EURO ACCOUNT' names Euro",
    );
    const linked = ok<Transfer>(await person.post(`/api/transfers/candidates/${offer.id}/accept`, {}));
    expect([linked.from.amount, linked.to.amount, linked.rate]).toEqual([-10000, 8520, '0.852']);
  });

  it('offers the pairs of an import into the other currency too, several per row at most three, none without a rate', async () => {
    const { person, add } = await household();
    // Three rows of yen could each be the 100.00 euros that left (about 16,100 yen), the nearest rate first.
    const near = await add('Yen', '2024-04-02', 16100, 'IN');
    await add('Yen', '2024-04-03', 16500, 'IN');
    await add('Yen', '2024-04-03', 15800, 'IN');
    await add('Yen', '2024-04-04', 16000, 'IN');
    // No rate within 7 days of 1 June: nothing to check the amounts against, so nothing is offered.
    await add('Euro', '2024-06-01', -5000, 'TO YEN');
    await add('Euro', '2024-04-02', -10000, 'TO YEN');
    const uploaded = await upload(person, 'Date,Description,Amount\n2024-06-02,FROM EURO,8050\n', 'Yen');
    expect(uploaded.body.transfers.offeredCount).toBe(0);
    const offers = ok<Offer[]>(await person.get('/api/transfers/candidates'));
    expect(offers).toEqual([]);
    // Offers come from the batch's rows only: importing the euro side now finds the yen rows.
    const euros = await upload(person, 'Date,Description,Amount\n2024-04-02,TO JAPAN,-100.00\n', 'Euro');
    expect(euros.body.transfers.offeredCount).toBe(3);
    const list = ok<Offer[]>(await person.get('/api/transfers/candidates'));
    expect(list.map((o) => o.to.amount)).toEqual([16100, 16000, 15800]);
    expect(list[0]?.to.id).toBe(near);
  });
});
