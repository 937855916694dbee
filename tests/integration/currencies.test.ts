import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountDto } from '../../src/shared/schemas/accounts';
import type { TransactionDto } from '../../src/shared/schemas/transactions';
import { data, ok, signUp, type ApiUser } from '../helpers/api';
import { rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

/**
 * Accounts in several currencies: each account's currency, the user's home currency, amounts in
 * the currency's minor unit on every door (API and imports), and original amounts of payments abroad.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

async function account(user: ApiUser, body: Record<string, unknown>): Promise<AccountDto> {
  return ok(await user.post('/api/accounts', { type: 'checking', ...body }));
}

async function rows(user: ApiUser): Promise<TransactionDto[]> {
  return ok(await user.get('/api/transactions?start_date=1900-01-01&end_date=2100-12-31'));
}

function upload(user: ApiUser, file: string, account: string) {
  const body = new FormData();
  body.append('file', new Blob([file]), 'statement');
  body.append('account', account);
  return rest(server.url, 'POST', '/api/upload', { token: user.token, body });
}

async function storedAccounts(user: ApiUser) {
  return server.sql('select name, currency, opening_balance from account where user_id = ? order by name', [
    user.userId,
  ]);
}

describe('home currency', () => {
  it('is USD unless sign-up names one; a wrong code is refused naming the field', async () => {
    const plain = await signUp(server.url);
    expect(ok(await plain.get('/api/auth/me'))).toMatchObject({ homeCurrency: 'USD', homeCurrencyChosen: true });

    const named = await rest(server.url, 'POST', '/api/auth/register', {
      body: { username: `eur${Date.now()}`, password: 'correct horse battery', homeCurrency: 'eur' },
    });
    expect(named.status).toBe(200);
    expect(named.body.user).toMatchObject({ homeCurrency: 'EUR' });

    const wrong = await rest(server.url, 'POST', '/api/auth/register', {
      body: { username: `bad${Date.now()}`, password: 'correct horse battery', homeCurrency: 'EURO' },
    });
    expect(wrong.status).toBe(400);
    expect(JSON.stringify(wrong.body)).toMatch(/homeCurrency.*ISO 4217/);
  });

  it('changes without a password and changes no account (REST and tRPC)', async () => {
    const user = await signUp(server.url);
    await account(user, { name: 'Pounds', currency: 'GBP' });
    await account(user, { name: 'Dollars' });
    const before = await storedAccounts(user);
    expect(ok(await user.put('/api/auth/home-currency', { homeCurrency: 'EUR' }))).toMatchObject({
      homeCurrency: 'EUR',
    });
    expect(data(await user.trpc.auth.setHomeCurrency.mutate({ homeCurrency: 'JPY' })).homeCurrency).toBe('JPY');
    expect(await storedAccounts(user)).toEqual(before);
    const refused = await user.put('/api/auth/home-currency', { homeCurrency: 'XYZ' });
    expect(refused.status).toBe(400);
    expect(ok(await user.get('/api/auth/me')).homeCurrency).toBe('JPY');
  });

  it('a user from before currencies relabels the default accounts with the first choice, then never again', async () => {
    const user = await signUp(server.url);
    await account(user, { name: 'Old' });
    await account(user, { name: 'Yen', currency: 'JPY' });
    // As the upgrade leaves a user who had data: home USD, not chosen.
    await server.sql('update "user" set home_currency_chosen = false where id = ?', [user.userId]);
    expect(ok(await user.get('/api/auth/me')).homeCurrencyChosen).toBe(false);

    ok(await user.put('/api/auth/home-currency', { homeCurrency: 'CHF' }));
    expect((await storedAccounts(user)).map((a) => [a.name, a.currency])).toEqual([
      ['Old', 'CHF'],
      ['Yen', 'JPY'],
    ]);
    ok(await user.put('/api/auth/home-currency', { homeCurrency: 'EUR' }));
    expect((await storedAccounts(user)).map((a) => a.currency)).toEqual(['CHF', 'JPY']);
  });
});

describe('account currency', () => {
  it('defaults to the home currency, reads lower case, refuses what ISO 4217 does not list', async () => {
    const user = await signUp(server.url);
    ok(await user.put('/api/auth/home-currency', { homeCurrency: 'GBP' }));
    expect((await account(user, { name: 'Main' })).currency).toBe('GBP');
    expect((await account(user, { name: 'Yen', currency: 'jpy' })).currency).toBe('JPY');
    expect(
      data(await user.trpc.accounts.create.mutate({ name: 'Dinar', type: 'cash', currency: 'BHD' })).currency,
    ).toBe('BHD');
    for (const currency of ['EURO', 'XXX', '', 12]) {
      const res = await user.post('/api/accounts', { name: `Bad ${String(currency)}`, type: 'cash', currency });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(/currency.*ISO 4217/);
    }
    expect((await storedAccounts(user)).map((a) => a.name)).toEqual(['Dinar', 'Main', 'Yen']);
  });

  it('changes on an empty account; with transactions it is refused with 409 and the reason, and nothing changes', async () => {
    const user = await signUp(server.url);
    const card = await account(user, { name: 'Card', currency: 'EUR' });
    expect(ok(await user.put(`/api/accounts/${card.id}`, { currency: 'GBP' })).currency).toBe('GBP');
    ok(
      await user.post('/api/transactions', {
        postDate: '2024-01-02',
        description: 'Tea',
        amount: -250,
        account: 'Card',
      }),
    );

    const refused = await user.put(`/api/accounts/${card.id}`, { currency: 'EUR', name: 'Renamed' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/1 transaction in GBP.*cannot change/);
    const viaTrpc = await user.trpc.accounts.update.mutate({ id: card.id, data: { currency: 'USD' } });
    expect(viaTrpc.error?.data.httpStatus).toBe(409);
    expect(await storedAccounts(user)).toEqual([{ name: 'Card', currency: 'GBP', opening_balance: 0 }]);
  });

  it('an empty account with a balance changes currency only with its balance given anew', async () => {
    const user = await signUp(server.url);
    const cash = await account(user, { name: 'Cash', currency: 'EUR', balance: 1050 });
    const refused = await user.put(`/api/accounts/${cash.id}`, { currency: 'JPY' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatch(/balance in EUR.*JPY/);
    expect(ok(await user.put(`/api/accounts/${cash.id}`, { currency: 'JPY', balance: 1600 }))).toMatchObject({
      currency: 'JPY',
      balance: 1600,
    });
  });

  it('a transaction moves only between accounts of one currency', async () => {
    const user = await signUp(server.url);
    await account(user, { name: 'Euro', currency: 'EUR' });
    await account(user, { name: 'Euro 2', currency: 'EUR' });
    await account(user, { name: 'Yen', currency: 'JPY' });
    const tx = ok<TransactionDto>(
      await user.post('/api/transactions', {
        postDate: '2024-01-02',
        description: 'Tea',
        amount: -250,
        account: 'Euro',
      }),
    );
    const moved = await user.put(`/api/transactions/${tx.id}`, { account: 'Yen' });
    expect(moved.status).toBe(409);
    expect(moved.body.error).toMatch(/'Yen' is in JPY.*in EUR/);
    const bulk = await user.put('/api/transactions/bulk', {
      transactionIds: [tx.id],
      updates: { account: 'Yen' },
    });
    expect(bulk.status).toBe(409);
    expect((await rows(user))[0]).toMatchObject({ account: 'Euro', currency: 'EUR', amount: -250 });
    expect(ok(await user.put(`/api/transactions/${tx.id}`, { account: 'Euro 2' }))).toMatchObject({
      account: 'Euro 2',
      currency: 'EUR',
    });
  });
});

describe('original amounts', () => {
  it('are stored and answered beside the amount and its currency; one without the other is refused', async () => {
    const user = await signUp(server.url);
    await account(user, { name: 'Card', currency: 'EUR' });
    const created = ok<TransactionDto>(
      await user.post('/api/transactions', {
        postDate: '2024-05-01',
        description: 'Hotel in Tokyo',
        amount: -12345,
        originalAmount: -20000,
        originalCurrency: 'JPY',
        account: 'Card',
      }),
    );
    expect(created).toMatchObject({ amount: -12345, currency: 'EUR', originalAmount: -20000, originalCurrency: 'JPY' });

    const half = await user.put(`/api/transactions/${created.id}`, { originalAmount: -1 });
    expect(half.status).toBe(400);
    expect(JSON.stringify(half.body)).toMatch(/originalAmount and originalCurrency go together/);
    const cleared = data(
      await user.trpc.transactions.update.mutate({
        id: created.id,
        data: { originalAmount: null, originalCurrency: null },
      }),
    );
    expect(cleared).toMatchObject({ originalAmount: null, originalCurrency: null, amount: -12345 });
  });
});

describe("messages in the account's currency", () => {
  it('name yen amounts as whole yen: a split that does not add up, a reconcile difference, a link refused', async () => {
    const user = await signUp(server.url);
    const yen = await account(user, { name: 'Yen', currency: 'JPY' });
    await account(user, { name: 'Yen savings', currency: 'JPY' });
    const parent = ok(
      await user.post<TransactionDto>('/api/transactions', {
        account: 'Yen',
        postDate: '2024-03-01',
        description: 'Shop',
        amount: -1500,
      }),
    );
    const split = await user.post(`/api/transactions/${parent.id}/split`, {
      splits: [
        { amount: -1000, category: 'Food' },
        { amount: -400, category: 'Home' },
      ],
    });
    expect(split.status).toBe(400);
    expect(split.body.error).toBe('Split amounts must sum to 1500');

    const reconcile = await user.post(`/api/accounts/${yen.id}/reconcile`, {
      statementDate: '2024-03-31',
      statementBalance: -1000,
    });
    expect(reconcile.status).toBe(409);
    expect(reconcile.body.error).toContain('differs from the statement by 500:');

    const other = ok(
      await user.post<TransactionDto>('/api/transactions', {
        account: 'Yen savings',
        postDate: '2024-03-01',
        description: 'In',
        amount: 1400,
      }),
    );
    const link = await user.post('/api/transfers/link', { transactionIds: [parent.id, other.id] });
    expect(link.status).toBe(400);
    expect(link.body.error).toContain('(-1,500 in');
    expect(link.body.error).toContain('(1,400 in');
  });
});

describe('imports in the account currency', () => {
  it("reads a yen account's amounts as whole yen and fills original amounts from the file's columns", async () => {
    const user = await signUp(server.url);
    await account(user, { name: 'Yen', currency: 'JPY' });
    const csv = [
      'Date,Description,Amount,Original Amount,Original Currency',
      '2024-03-01,Konbini,-1500,,',
      '2024-03-02,Shop in Paris,-3260,20.00,EUR',
      '2024-03-03,Salary,250000.00,,',
    ].join('\n');
    const res = await upload(user, csv, 'Yen');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const stored = (await rows(user)).sort((a, b) => a.postDate.localeCompare(b.postDate));
    expect(stored.map((r) => [r.amount, r.currency, r.originalAmount, r.originalCurrency])).toEqual([
      [-1500, 'JPY', null, null],
      [-3260, 'JPY', -2000, 'EUR'],
      [250000, 'JPY', null, null],
    ]);
  });

  it("warns when the file's rows are in another currency than the account, naming both", async () => {
    const user = await signUp(server.url);
    await account(user, { name: 'Euro', currency: 'EUR' });
    const ofx = [
      'OFXHEADER:100',
      'DATA:OFXSGML',
      '',
      '<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>GBP<BANKACCTFROM><ACCTID>9</BANKACCTFROM><BANKTRANLIST>',
      '<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240410<TRNAMT>-17.10<FITID>F1<NAME>CAFE</STMTTRN>',
      '</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>',
    ].join('\r\n');
    const statement = await upload(user, ofx, 'Euro');
    expect(statement.status).toBe(201);
    expect(statement.body.warnings).toEqual([
      '1 row is in GBP, but this account is in EUR: its amount is imported as EUR, not converted. Import a file into an account of its own currency.',
    ]);
    const csv = [
      'Date,Description,Amount,Currency',
      '2024-03-01,a,-1.00,EUR',
      '2024-03-02,b,-2.00,USD',
      '2024-03-03,c,-3.00,usd',
    ];
    const mixed = await upload(user, csv.join('\n'), 'Euro');
    expect(mixed.body.warnings).toEqual([
      '2 rows are in USD, but this account is in EUR: their amounts are imported as EUR, not converted. Import a file into an account of its own currency.',
    ]);
    const same = await upload(user, 'Date,Description,Amount,Currency\n2024-04-01,d,-4.00,EUR\n', 'Euro');
    expect(same.body.warnings).toEqual([]);
  });

  it('refuses a yen cell with decimals that are not zero, naming the line', async () => {
    const user = await signUp(server.url);
    await account(user, { name: 'Yen', currency: 'JPY' });
    const res = await upload(user, 'Date,Description,Amount\n2024-03-01,Konbini,-15.50\n', 'Yen');
    expect(res.status).toBe(422);
    expect(res.body.error).toMatch(/Line 2.*-15\.50/);
    // The bound is 10^13 minor units, named in whole yen.
    const large = await upload(user, 'Date,Description,Amount\n2024-03-01,Konbini,-10000000000001\n', 'Yen');
    expect(large.status).toBe(422);
    expect(large.body.error).toBe('Line 2: the amount is larger than the largest amount allowed (10,000,000,000,000).');
    expect(await rows(user)).toEqual([]);
  });

  it('reads "Local amount"/"Local currency" and three-decimal dinars', async () => {
    const user = await signUp(server.url);
    await account(user, { name: 'Dinar', currency: 'BHD' });
    const csv = ['Date,Description,Amount,Local amount,Local currency', '2024-03-01,Dubai mall,-1.250,-12.10,AED'].join(
      '\n',
    );
    ok(await upload(user, csv, 'Dinar'));
    expect((await rows(user))[0]).toMatchObject({
      amount: -1250,
      currency: 'BHD',
      originalAmount: -1210,
      originalCurrency: 'AED',
    });
  });

  it('fills original amounts from OFX ORIGCURRENCY/CURRATE and CAMT InstdAmt', async () => {
    const user = await signUp(server.url);
    await account(user, { name: 'Pounds', currency: 'GBP' });
    const ofx = [
      'OFXHEADER:100',
      'DATA:OFXSGML',
      '',
      '<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>GBP<BANKACCTFROM><ACCTID>9</BANKACCTFROM><BANKTRANLIST>',
      '<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240410<TRNAMT>-17.10<FITID>F1<NAME>CAFE ROMA<ORIGCURRENCY><CURRATE>0.855<CURSYM>EUR</ORIGCURRENCY></STMTTRN>',
      '<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240411<TRNAMT>-3.00<FITID>F2<NAME>BUS</STMTTRN>',
      '</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>',
    ].join('\r\n');
    ok(await upload(user, ofx, 'Pounds'));
    const camt = `<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt><Acct><Id><IBAN>GB00X</IBAN></Id><Ccy>GBP</Ccy></Acct>
<Ntry><Amt Ccy="GBP">42.50</Amt><CdtDbtInd>DBIT</CdtDbtInd><BookgDt><Dt>2024-04-12</Dt></BookgDt><AcctSvcrRef>C1</AcctSvcrRef>
<NtryDtls><TxDtls><AmtDtls><InstdAmt><Amt Ccy="USD">53.99</Amt></InstdAmt><TxAmt><Amt Ccy="GBP">42.50</Amt></TxAmt></AmtDtls><RmtInf><Ustrd>US SHOP</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>
</Stmt></BkToCstmrStmt></Document>`;
    ok(await upload(user, camt, 'Pounds'));
    const stored = (await rows(user)).sort((a, b) => a.postDate.localeCompare(b.postDate));
    expect(stored.map((r) => [r.amount, r.originalAmount, r.originalCurrency])).toEqual([
      [-1710, -2000, 'EUR'],
      [-300, null, null],
      [-4250, -5399, 'USD'],
    ]);
  });
});
