import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

/**
 * Transfers found on import, on a real server (SQLite in `node`, PostgreSQL in `integration-pg`):
 * half a year of generated statements for a checking account, a card and savings in the layouts
 * their banks export, with card payments and savings transfers seen from both sides 0-4 days apart
 * and decoys of the same amounts. What import links must all be transfers; nearly every transfer
 * must be linked or offered; offers are accepted or dismissed, and a dismissed pair stays dismissed.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

type Tx = {
  id: number;
  postDate: string;
  description: string;
  amount: number;
  account: string;
  transferId: number | null;
  transferCounterpartId: number | null;
};
type Candidate = { id: number; score: number; reason: string; from: Tx; to: Tx };
type Upload = {
  message: string;
  transfers: {
    linked: { transferId: number; fromId: number; toId: number; reason: string }[];
    offered: { candidateId: number; fromId: number; toId: number; reason: string }[];
    linkedCount: number;
    offeredCount: number;
  };
};

/** A small seeded generator, so every run sees the same statements. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Line {
  date: string;
  description: string;
  /** Cents as the account sees it: negative is money out. */
  amount: number;
}

const CHECKING = 'Checking 1234';
const CARD = 'Card 4321';
const SAVINGS = 'Savings 5678';

function day(start: string, offset: number): string {
  const d = new Date(`${start}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + offset);
  return d.toISOString().slice(0, 10);
}
const us = (iso: string) => `${Number(iso.slice(5, 7))}/${Number(iso.slice(8, 10))}/${iso.slice(0, 4)}`;
const dollars = (cents: number) => (Math.abs(cents) / 100).toFixed(2);

/** Six months of three accounts, the transfers between them, and decoys of the same amounts. */
function statements(seed: number) {
  const rand = random(seed);
  const cents = (min: number, max: number) => Math.round((min + rand() * (max - min)) * 100);
  const lines: Record<string, Line[]> = { [CHECKING]: [], [CARD]: [], [SAVINGS]: [] };
  const truth: { from: [string, Line]; to: [string, Line] }[] = [];
  const merchants = ['WHOLE FOODS', 'SHELL OIL', 'NETFLIX.COM', 'TARGET', 'UBER TRIP', 'CVS PHARMACY', 'COSTCO'];
  const transfer = (from: string, to: string, date: string, amount: number, out: string, into: string, lag: number) => {
    const a: Line = { date, description: out, amount: -amount };
    const b: Line = { date: day(date, lag), description: into, amount };
    lines[from].push(a);
    lines[to].push(b);
    truth.push({ from: [from, a], to: [to, b] });
  };
  for (let d = 0; d < 180; d += 1) {
    const date = day('2025-01-01', d);
    if (d % 14 === 4) lines[CHECKING].push({ date, description: 'ACME CORP PAYROLL', amount: cents(2400, 2600) });
    if (rand() < 0.6)
      lines[CARD].push({
        date,
        description: merchants[Math.floor(rand() * merchants.length)],
        amount: -cents(3, 140),
      });
    if (rand() < 0.3) lines[CHECKING].push({ date, description: 'ATM WITHDRAWAL', amount: -cents(20, 200) });
    if (rand() < 0.04) lines[CARD].push({ date, description: 'RETURN TARGET', amount: cents(5, 60) });
    const lag = Math.floor(rand() * 5);
    if (d % 30 === 10) {
      const amount = cents(300, 1500);
      const named = rand() < 0.5;
      transfer(
        CHECKING,
        CARD,
        date,
        amount,
        named ? 'PAYMENT TO CREDIT CARD ENDING IN 4321' : 'CHASE CREDIT CRD AUTOPAY PPD ID: 4760039224',
        'AUTOMATIC PAYMENT - THANK YOU',
        lag,
      );
      // A decoy: a bill of the very same amount from checking two days later.
      if (d % 60 === 10) lines[CHECKING].push({ date: day(date, 2), description: 'CITY WATER DEPT', amount: -amount });
    }
    if (d % 30 === 20) {
      const amount = cents(100, 600);
      transfer(
        CHECKING,
        SAVINGS,
        date,
        amount,
        'ONLINE TRANSFER TO SAV XXXXXX5678',
        'TRANSFER FROM CHK XXXXXX1234',
        lag,
      );
      // A decoy: a deposit of the same amount into savings the next day.
      if (d % 60 === 20) lines[SAVINGS].push({ date: day(date, 1), description: 'MOBILE DEPOSIT', amount });
    }
    if (d % 45 === 30)
      transfer(SAVINGS, CHECKING, date, cents(50, 400), 'WITHDRAWAL TO CHECKING', 'ONLINE TRANSFER FROM SAVINGS', lag);
  }
  // Bank layouts: a Schwab-style checking export, a Chase card export, a plain savings export.
  const checking = [
    '"Date","Status","Type","CheckNumber","Description","Withdrawal","Deposit","RunningBalance"',
    ...lines[CHECKING].map(
      (l) =>
        `"${us(l.date)}","Posted","${l.amount < 0 ? 'ACH' : 'DEPOSIT'}","","${l.description}","${l.amount < 0 ? `$${dollars(l.amount)}` : ''}","${l.amount > 0 ? `$${dollars(l.amount)}` : ''}",""`,
    ),
  ].join('\n');
  const card = [
    'Transaction Date,Post Date,Description,Category,Type,Amount,Memo',
    ...lines[CARD].map(
      (l) =>
        `${us(l.date)},${us(l.date)},${l.description},${l.amount > 0 ? '' : 'Shopping'},${l.amount > 0 ? 'Payment' : 'Sale'},${l.amount < 0 ? '-' : ''}${dollars(l.amount)},`,
    ),
  ].join('\n');
  const savings = [
    'Date,Description,Amount',
    ...lines[SAVINGS].map((l) => `${l.date},${l.description},${(l.amount / 100).toFixed(2)}`),
  ].join('\n');
  const files: Record<string, string> = { [CHECKING]: checking, [CARD]: card, [SAVINGS]: savings };
  return { files, truth };
}

async function upload(user: ApiUser, account: string, csv: string, fileName = 'statement.csv') {
  const body = new FormData();
  body.append('file', new Blob([csv]), fileName);
  body.append('account', account);
  body.append('transactionType', 'auto');
  return rest<Upload>(server.url, 'POST', '/api/upload', { token: user.token, body });
}

async function all(user: ApiUser): Promise<Tx[]> {
  return ok(await user.get<Tx[]>('/api/transactions?start_date=2000-01-01&end_date=2100-01-01'));
}

async function candidates(user: ApiUser): Promise<Candidate[]> {
  return ok(await user.get<Candidate[]>('/api/transfers/candidates?limit=1000'));
}

async function userWith(...names: string[]): Promise<ApiUser> {
  const user = await signUp(server.url);
  for (const name of names) {
    const type = name === CARD ? 'credit' : name === SAVINGS ? 'savings' : 'checking';
    ok(await user.post('/api/accounts', { name, type }));
  }
  return user;
}

describe('transfers found on import', () => {
  it.each([7, 19, 31])(
    'links only true transfers and links or offers nearly all of them, with decoys of the same amounts (seed %i)',
    async (seed) => {
      const user = await userWith(CHECKING, CARD, SAVINGS);
      const { files, truth } = statements(seed);
      const answers: Upload[] = [];
      for (const account of [CHECKING, CARD, SAVINGS]) {
        const res = await upload(user, account, files[account]);
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        answers.push(res.body);
      }
      const rows = await all(user);
      const find = ([account, line]: [string, Line]) => {
        const found = rows.filter(
          (r) =>
            r.account === account &&
            r.postDate === line.date &&
            r.amount === line.amount &&
            r.description === line.description,
        );
        expect(found, `${account} ${line.date} ${line.description}`).toHaveLength(1);
        return found[0].id;
      };
      const key = (a: number, b: number) => (a < b ? `${a}:${b}` : `${b}:${a}`);
      const truePairs = new Set(truth.map((pair) => key(find(pair.from), find(pair.to))));
      const linkedPairs = new Set(
        rows.filter((r) => r.transferCounterpartId !== null).map((r) => key(r.id, r.transferCounterpartId!)),
      );
      const offeredPairs = new Set((await candidates(user)).map((c) => key(c.from.id, c.to.id)));

      expect(truePairs.size).toBeGreaterThanOrEqual(15);
      // Precision of automatic links: every one is a true transfer.
      expect([...linkedPairs].filter((pair) => !truePairs.has(pair))).toEqual([]);
      expect(linkedPairs.size).toBeGreaterThan(truePairs.size / 2);
      // Recall of linked or offered pairs.
      const found = [...truePairs].filter((pair) => linkedPairs.has(pair) || offeredPairs.has(pair));
      expect(found.length / truePairs.size).toBeGreaterThanOrEqual(0.95);
      // The decoys made some pairs uncertain: those are offered, not linked.
      expect(offeredPairs.size).toBeGreaterThan(0);
      // The upload answers said what they linked and offered.
      const said = answers.reduce((sum, a) => sum + (a.transfers?.linkedCount ?? 0), 0);
      expect(said).toBe(linkedPairs.size);
      expect(answers[0].transfers.linkedCount).toBe(0);
      expect(answers[2].message).toMatch(/Linked \d+ transfers?/);
      for (const a of answers)
        for (const pair of a.transfers.linked) expect(linkedPairs.has(key(pair.fromId, pair.toId))).toBe(true);
    },
  );

  it('offers a pair of two imports, lists it with its score and reason, and accepting links it', async () => {
    const user = await userWith('Everyday', 'Holiday fund');
    ok(
      await upload(
        user,
        'Everyday',
        'Date,Description,Amount\n2025-03-01,MOVE MONEY,-250.00\n2025-03-02,BAKERY,-4.10\n',
      ),
    );
    const second = ok(await upload(user, 'Holiday fund', 'Date,Description,Amount\n2025-03-05,INCOMING,250.00\n'));
    expect(second.transfers.linkedCount).toBe(0);
    expect(second.transfers.offered).toEqual([
      expect.objectContaining({
        candidateId: expect.any(Number),
        score: expect.any(Number),
        reason: expect.stringMatching(/4 days apart/),
      }),
    ]);
    expect(second.message).toMatch(/1 possible transfer to confirm/);
    const [offer] = await candidates(user);
    expect(offer).toMatchObject({
      id: second.transfers.offered[0].candidateId,
      from: { account: 'Everyday', amount: -25_000, transferId: null },
      to: { account: 'Holiday fund', amount: 25_000 },
    });
    const accepted = await user.post<{ transferId: number; from: Tx; to: Tx }>(
      `/api/transfers/candidates/${offer.id}/accept`,
    );
    expect(accepted.status).toBe(201);
    expect(accepted.body.from).toMatchObject({ id: offer.from.id, transferCounterpartId: offer.to.id });
    expect(await candidates(user)).toEqual([]);
    expect((await user.post(`/api/transfers/candidates/${offer.id}/accept`)).status).toBe(404);
  });

  it('never offers a dismissed pair again, and settles the offers of a row linked by hand', async () => {
    const user = await userWith('Everyday', 'Holiday fund', 'Rainy day');
    ok(
      await upload(user, 'Everyday', 'Date,Description,Amount\n2025-03-01,MOVE MONEY,-90.00\n2025-03-09,MOVE,-30.00\n'),
    );
    ok(await upload(user, 'Holiday fund', 'Date,Description,Amount\n2025-03-04,INCOMING,90.00\n2025-03-12,IN,30.00\n'));
    ok(await upload(user, 'Rainy day', 'Date,Description,Amount\n2025-03-12,IN,30.00\n'));
    const offers = await candidates(user);
    const ninety = offers.find((c) => c.to.amount === 9_000)!;
    expect(ok(await user.post(`/api/transfers/candidates/${ninety.id}/dismiss`))).toMatchObject({
      message: /will not be offered again/,
    });
    expect((await user.post(`/api/transfers/candidates/${ninety.id}/dismiss`)).status).toBe(409);
    expect((await user.post(`/api/transfers/candidates/${ninety.id}/accept`)).status).toBe(409);
    const thirties = (await candidates(user)).filter((c) => c.to.amount === 3_000);
    expect(thirties).toHaveLength(2);
    // The same files again: every row a duplicate, nothing new is offered.
    ok(await upload(user, 'Holiday fund', 'Date,Description,Amount\n2025-03-04,INCOMING,90.00\n2025-03-12,IN,30.00\n'));
    expect((await candidates(user)).map((c) => c.id).sort()).toEqual(thirties.map((c) => c.id).sort());
    // Linking the 30.00 by hand settles both offers of its money-out row.
    ok(await user.post('/api/transfers/link', { transactionIds: [thirties[0].from.id, thirties[0].to.id] }));
    expect(await candidates(user)).toEqual([]);
    // The dismissed pair can still be linked by hand.
    ok(await user.post('/api/transfers/link', { transactionIds: [ninety.from.id, ninety.to.id] }));
  });

  it('looks as far apart as the window setting says', async () => {
    const user = await userWith('Everyday', 'Holiday fund');
    expect(ok(await user.get('/api/settings'))).toMatchObject({ transferWindowDays: 5 });
    expect(ok(await user.put('/api/settings', { transferWindowDays: 1 }))).toMatchObject({ transferWindowDays: 1 });
    for (const bad of [
      { transferWindowDays: -1 },
      { transferWindowDays: 15 },
      { transferWindowDays: 2.5 },
      { other: 1 },
    ]) {
      const res = await user.put('/api/settings', bad);
      expect(res.status).toBe(400);
    }
    ok(await upload(user, 'Everyday', 'Date,Description,Amount\n2025-03-01,MOVE MONEY,-90.00\n'));
    const far = ok(await upload(user, 'Holiday fund', 'Date,Description,Amount\n2025-03-03,INCOMING,90.00\n'));
    expect(far.transfers).toMatchObject({ linkedCount: 0, offeredCount: 0 });
    ok(await user.put('/api/settings', { transferWindowDays: 2 }));
    const near = ok(await upload(user, 'Holiday fund', 'Date,Description,Amount\n2025-03-03,INCOMING TWO,90.00\n'));
    // Within the window now; the row of the first upload is a rival, so the pair is offered.
    expect(near.transfers).toMatchObject({ linkedCount: 0, offeredCount: 1 });
    expect(near.transfers.offered[0].reason).toMatch(/2 days apart/);
  });

  it('counts as a rival a row of the importing account dated beyond the file but within the window', async () => {
    const user = await userWith('Everyday', 'Holiday fund');
    ok(await upload(user, 'Holiday fund', 'Date,Description,Amount\n2025-03-06,INCOMING EARLIER,90.00\n'));
    ok(await upload(user, 'Everyday', 'Date,Description,Amount\n2025-03-01,MOVE MONEY,-90.00\n'));
    // The 2025-03-06 row, five days from the money out, could be its other side as well: an offer, not a link.
    const second = ok(await upload(user, 'Holiday fund', 'Date,Description,Amount\n2025-03-03,INCOMING,90.00\n'));
    expect(second.transfers).toMatchObject({ linkedCount: 0 });
    expect((await all(user)).filter((row) => row.transferId !== null)).toEqual([]);
  });

  it('counts as a rival a row of a third account with the amount of the importing row', async () => {
    const user = await userWith('Everyday', 'Holiday fund', 'Savings');
    ok(await user.put('/api/settings', { transferWindowDays: 1 }));
    ok(await upload(user, 'Savings', 'Date,Description,Amount\n2025-03-01,PAYMENT OUT,-90.00\n'));
    // Two days apart, beyond the window of one day: not paired with the savings row.
    ok(await upload(user, 'Everyday', 'Date,Description,Amount\n2025-03-03,PAYMENT IN,90.00\n'));
    ok(await user.put('/api/settings', { transferWindowDays: 3 }));
    // The money in could have come from the savings row as well: an offer, not a link.
    const last = ok(await upload(user, 'Holiday fund', 'Date,Description,Amount\n2025-03-04,PAYMENT OUT,-90.00\n'));
    expect(last.transfers).toMatchObject({ linkedCount: 0, offeredCount: 1 });
    expect((await all(user)).filter((row) => row.transferId !== null)).toEqual([]);
  });

  it('pairs rows of one currency only: the same figure in another currency is no transfer', async () => {
    const user = await userWith('Everyday');
    ok(await user.post('/api/accounts', { name: 'Euro account', type: 'checking', currency: 'EUR' }));
    ok(await upload(user, 'Everyday', 'Date,Description,Amount\n2025-03-01,MOVE MONEY,-90.00\n'));
    const euro = ok(await upload(user, 'Euro account', 'Date,Description,Amount\n2025-03-01,MOVE MONEY,90.00\n'));
    expect(euro.transfers).toMatchObject({ linkedCount: 0, offeredCount: 0 });
  });
});
