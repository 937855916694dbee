import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESCRIPTION_MAX_LENGTH, MAX_AMOUNT_CENTS } from '../../src/shared/limits';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

/**
 * The import over HTTP beyond plain CSV: statements (OFX, QIF, CAMT.053) through the same
 * pipeline, FITID duplicates, column mappings and the account's import profile, the `auto`
 * transaction type, and the bounds every imported row meets.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

function form(file: string | Uint8Array, fields: Record<string, string>, fileName = 'statement'): FormData {
  const body = new FormData();
  body.append('file', new Blob([file as BlobPart]), fileName);
  for (const [key, value] of Object.entries(fields)) body.append(key, value);
  return body;
}

async function upload(
  user: ApiUser,
  file: string | Uint8Array,
  fields: Record<string, string> = {},
  account = 'Checking',
) {
  return rest(server.url, 'POST', '/api/upload', { token: user.token, body: form(file, { account, ...fields }) });
}

async function userWith(accounts: { name: string; type: string }[] = [{ name: 'Checking', type: 'checking' }]) {
  const user = await signUp(server.url);
  const ids: Record<string, number> = {};
  for (const account of accounts) ids[account.name] = ok(await user.post('/api/accounts', account)).id;
  return { user, ids };
}

async function stored(user: ApiUser) {
  return ok<
    {
      postDate: string;
      description: string;
      amount: number;
      type: string;
      account: string;
    }[]
  >(await user.get('/api/transactions?start_date=1900-01-01&end_date=2100-12-31'));
}

const ofx = (trns: { fitid: string; date: string; amount: string; name: string; memo?: string }[]) =>
  [
    'OFXHEADER:100',
    'DATA:OFXSGML',
    'VERSION:102',
    '',
    '<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><ACCTID>123</BANKACCTFROM><BANKTRANLIST>',
    ...trns.map(
      (t) =>
        `<STMTTRN><TRNTYPE>OTHER<DTPOSTED>${t.date}120000[-5:EST]<TRNAMT>${t.amount}<FITID>${t.fitid}<NAME>${t.name}${t.memo ? `<MEMO>${t.memo}` : ''}</STMTTRN>`,
    ),
    '</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>',
  ].join('\r\n');

describe('statements through the same pipeline', () => {
  it('imports OFX by content (whatever the file name), and a re-import adds 0 even when the bank changed the descriptions', async () => {
    const { user } = await userWith();
    const file = ofx([
      { fitid: 'A1', date: '20240105', amount: '-12.50', name: 'COFFEE', memo: 'CARD 1234' },
      { fitid: 'A2', date: '20240105', amount: '-12.50', name: 'COFFEE', memo: 'CARD 1234' },
      { fitid: 'A3', date: '20240106', amount: '1000.00', name: 'PAYROLL' },
    ]);
    const preview = await upload(user, file, { dryRun: 'true' }, 'Checking');
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({
      format: 'ofx',
      imported: 3,
      dateColumn: 'DTPOSTED',
      message: 'Ready to import 3 transactions.',
    });
    const first = await upload(user, file, {}, 'Checking');
    expect(first.status).toBe(201);
    expect(first.body).toEqual({
      message: 'Imported 3 transactions',
      batchId: expect.any(String),
      imported: 3,
      duplicates: 0,
      skipped: 0,
      warnings: [],
      attention: [],
      transfers: { linked: [], offered: [], linkedCount: 0, offeredCount: 0 },
    });
    expect((await stored(user)).map((t) => [t.postDate, t.amount, t.description, t.type]).sort()).toEqual([
      ['2024-01-05', -1250, 'COFFEE — CARD 1234', 'debit'],
      ['2024-01-05', -1250, 'COFFEE — CARD 1234', 'debit'],
      ['2024-01-06', 100000, 'PAYROLL', 'credit'],
    ]);
    const renamed = file.replace(/COFFEE/g, 'STARBUCKS #12').replace('PAYROLL', 'ACME PAYROLL');
    const again = await upload(user, renamed, {}, 'Checking');
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ imported: 0, duplicates: 3, batchId: null });
    // A new FITID with the same date, amount and text is a new transaction.
    const more = await upload(
      user,
      ofx([{ fitid: 'A4', date: '20240105', amount: '-12.50', name: 'COFFEE', memo: 'CARD 1234' }]),
    );
    expect(more.body).toMatchObject({ imported: 1, duplicates: 0 });
  });

  it('imports QIF and CAMT.053 with the same answer shape, and refuses an ambiguous QIF naming the candidates', async () => {
    const { user } = await userWith();
    const qif = "!Type:Bank\nD1/5'24\nT-5.00\nPBAKERY\nMBread\n^\nD1/20'24\nT20.00\nPREFUND\n^\n";
    const res = await upload(user, qif, {}, 'Checking');
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ imported: 2, duplicates: 0, skipped: 0, warnings: [] });
    const fresh = (await userWith()).user;
    const ambiguous = await upload(fresh, '!Type:Bank\nD01/02/2024\nT-1.00\nPA\n^\nD03/04/2024\nT-2.00\nPB\n^\n', {
      dryRun: 'true',
    });
    expect(ambiguous.status).toBe(422);
    expect(ambiguous.body).toMatchObject({ code: 'AMBIGUOUS_DATE', candidates: ['MM/DD/YYYY', 'DD/MM/YYYY'] });

    const camt = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt><Acct><Id><IBAN>DE00123</IBAN></Id></Acct>
<Ntry><Amt Ccy="EUR">42.10</Amt><CdtDbtInd>DBIT</CdtDbtInd><BookgDt><Dt>2024-02-03</Dt></BookgDt><AcctSvcrRef>R1</AcctSvcrRef>
<NtryDtls><TxDtls><RltdPties><Dbtr><Nm>Me Myself</Nm></Dbtr><Cdtr><Nm>Stadtwerke</Nm></Cdtr></RltdPties><RmtInf><Ustrd>Strom Februar</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>
<Ntry><Amt Ccy="USD">10.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><BookgDt><Dt>2024-02-04</Dt></BookgDt><AcctSvcrRef>R2</AcctSvcrRef>
<NtryDtls><TxDtls><RltdPties><Dbtr><Nm>Friend &amp; Co</Nm></Dbtr></RltdPties></TxDtls></NtryDtls></Ntry>
</Stmt></BkToCstmrStmt></Document>`;
    const camtRes = await upload(user, camt, { dryRun: 'true' }, 'Checking');
    expect(camtRes.status, JSON.stringify(camtRes.body)).toBe(200);
    expect(camtRes.body).toMatchObject({ format: 'camt053', imported: 2 });
    expect(
      camtRes.body.rows.map((r: { description: string; amount: number; currency: string }) => [
        r.description,
        r.amount,
        r.currency,
      ]),
    ).toEqual([
      ['Stadtwerke — Strom Februar', -4210, 'EUR'],
      ['Friend & Co', 1000, 'USD'],
    ]);
    expect(camtRes.body.warnings).toEqual([
      '1 row is in EUR, but this account is in USD: its amount is imported as USD, not converted. Import a file into an account of its own currency.',
    ]);
  });

  it.each([
    [
      'an XML bomb (entities declared)',
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;">]><OFX><STMTTRN><TRNAMT>&lol2;</STMTTRN></OFX>',
      'entities',
    ],
    [
      'deep nesting',
      `<?xml version="1.0"?><Document><BkToCstmrStmt>${'<a>'.repeat(5000)}</BkToCstmrStmt></Document>`,
      'nests',
    ],
    ['an XML file that is no statement', '<?xml version="1.0"?><html><body>hi</body></html>', 'neither'],
  ])('refuses %s with a message and writes nothing', async (_label, file, word) => {
    const { user } = await userWith();
    const res = await upload(user, file);
    expect([415, 422]).toContain(res.status);
    expect(res.body.error).toContain(word);
    expect(await stored(user)).toEqual([]);
  });
});

describe('transaction type auto (the default)', () => {
  it('stores money in as credit and money out as debit, or as charge on a credit account', async () => {
    const { user } = await userWith([
      { name: 'Checking', type: 'checking' },
      { name: 'Card', type: 'credit' },
    ]);
    const csv = 'Date,Description,Amount\n2024-01-01,Shop,-5.00\n2024-01-02,Refund,2.00\n';
    expect((await upload(user, csv, {}, 'Checking')).status).toBe(201);
    expect((await upload(user, csv, { transactionType: 'auto' }, 'Card')).status).toBe(201);
    const rows = (await stored(user)).map((t) => [t.account, t.amount, t.type]).sort();
    expect(rows).toEqual([
      ['Card', -500, 'charge'],
      ['Card', 200, 'credit'],
      ['Checking', -500, 'debit'],
      ['Checking', 200, 'credit'],
    ]);
  });
});

describe('column mappings and the account import profile', () => {
  const headerless = '05.01.2024;Bakery;Bread and rolls;-3,20\n06.01.2024;Employer;Salary;2500,00\n';

  it('asks for a mapping with the first rows, imports with one, saves it, and uses it next time', async () => {
    const { user, ids } = await userWith();
    // The content tells the columns of this headerless file: it is read, each role shown.
    const read = await upload(user, headerless, { dryRun: 'true' });
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(read.body.columns.map((c: { role: string }) => c.role)).toEqual([
      'date',
      'counterparty',
      'counterparty',
      'amount',
    ]);
    expect(read.body.sample).toEqual([
      ['05.01.2024', 'Bakery', 'Bread and rolls', '-3,20'],
      ['06.01.2024', 'Employer', 'Salary', '2500,00'],
    ]);
    // Two columns that could each be the amount: the person is asked.
    const refused = await upload(user, '05.01.2024;Bakery;-3,20;-1,00\n06.01.2024;Employer;2500,00;5,00\n', {
      dryRun: 'true',
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      needsMapping: true,
      sample: [
        ['05.01.2024', 'Bakery', '-3,20', '-1,00'],
        ['06.01.2024', 'Employer', '2500,00', '5,00'],
      ],
      suggestedMapping: { header: false, date: 0, amount: 2 },
    });
    expect((await user.get(`/api/accounts/${ids.Checking}/import-profile`)).status).toBe(404);

    const mapping = JSON.stringify({ header: false, date: 0, description: [1, 2], amount: 3 });
    const dry = await upload(user, headerless, { dryRun: 'true', mapping });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body.rows.map((r: { description: string; amount: number }) => [r.description, r.amount])).toEqual([
      ['Bakery Bread and rolls', -320],
      ['Employer Salary', 250000],
    ]);
    // A dry run saves nothing.
    expect((await user.get(`/api/accounts/${ids.Checking}/import-profile`)).status).toBe(404);
    expect((await upload(user, headerless, { mapping })).status).toBe(201);
    expect(ok(await user.get(`/api/accounts/${ids.Checking}/import-profile`))).toMatchObject({
      accountId: ids.Checking,
      mapping: { header: false, date: 0, description: [1, 2], amount: 3 },
      columnCount: 4,
      headers: [],
    });

    // Next month's file: read with the saved mapping, and the preview says so.
    const next = await upload(user, '05.02.2024;Bakery;Cake;-4,10\n', { dryRun: 'true' });
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    expect(next.body).toMatchObject({
      usedSavedMapping: true,
      imported: 1,
      rows: [{ description: 'Bakery Cake', amount: -410 }],
    });
    // A file of another shape is read without it.
    const other = await upload(user, 'Date,Description,Amount\n2024-03-01,x,-1.00\n', { dryRun: 'true' });
    expect(other.body).toMatchObject({ usedSavedMapping: false, imported: 1 });
    expect(other.body.notes.join(' ')).toContain('The saved mapping for this account was not used');
    // A file of another layout with as many columns is not misread: the person is asked.
    const reordered = await upload(user, 'Bakery;05.02.2024;Cake;-4,10\n', { dryRun: 'true' });
    expect(reordered.status).toBe(422);
    expect(reordered.body).toMatchObject({ needsMapping: true, sample: [['Bakery', '05.02.2024', 'Cake', '-4,10']] });
    expect(reordered.body.error).toContain(
      "The saved mapping for this account does not fit this file (column 1 holds 'Bakery', not a date)",
    );

    ok(await user.del(`/api/accounts/${ids.Checking}/import-profile`));
    // Without the saved mapping, the content tells the columns again.
    const unsaved = await upload(user, '05.02.2024;Bakery;Cake;-4,10\n', { dryRun: 'true' });
    expect(unsaved.body).toMatchObject({ usedSavedMapping: false, mapping: null, imported: 1 });
  });

  it('takes debit and credit columns, a category and a date format, and a header line', async () => {
    const { user } = await userWith();
    const file =
      'Wann|Was|Raus|Rein|Topf\n01/02/2024|Rent||x\n03/02/2024|Rent|500.00||Home\n04/02/2024|Pay||900.00|Work\n';
    const mapping = JSON.stringify({
      header: true,
      date: 0,
      description: [1],
      debit: 2,
      credit: 3,
      category: 4,
      dateFormat: 'DD/MM/YYYY',
    });
    const res = await upload(user, file, { dryRun: 'true', mapping });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.error).toContain("Line 2: the amount 'x' cannot be read");
    const fixed = file.replace('01/02/2024|Rent||x\n', '');
    const good = await upload(user, fixed, { dryRun: 'true', mapping });
    expect(
      good.body.rows.map((r: { postDate: string; amount: number; category: string }) => [
        r.postDate,
        r.amount,
        r.category,
      ]),
    ).toEqual([
      ['2024-02-03', -50000, 'Home'],
      ['2024-02-04', 90000, 'Work'],
    ]);
  });

  it.each([
    ['not JSON', '{date: 0', 'mapping: must be JSON'],
    ['no amount', JSON.stringify({ header: false, date: 0, description: [1] }), 'amount'],
    ['a column the file lacks', JSON.stringify({ header: false, date: 0, description: [1], amount: 9 }), 'column 9'],
    ['one column twice', JSON.stringify({ header: false, date: 0, description: [0], amount: 3 }), 'cannot be both'],
  ])('refuses a mapping with %s', async (_label, mapping, text) => {
    const { user } = await userWith();
    const res = await upload(user, headerless, { mapping });
    expect([400, 422]).toContain(res.status);
    expect(res.body.error).toContain(text);
    expect(await stored(user)).toEqual([]);
  });

  it('PUT validates the profile and answers it; GET reads the same profile', async () => {
    const { user, ids } = await userWith();
    const bad = await user.put(`/api/accounts/${ids.Checking}/import-profile`, {
      mapping: { header: false, date: 0, description: [], amount: 5 },
      columnCount: 3,
    });
    expect(bad.status).toBe(400);
    const saved = ok(
      await user.put(`/api/accounts/${ids.Checking}/import-profile`, {
        mapping: { header: true, date: 1, description: [0], amount: 2 },
        columnCount: 3,
        headers: ['Who', 'When', 'How much'],
      }),
    );
    expect(saved).toMatchObject({ columnCount: 3, headers: ['Who', 'When', 'How much'] });
    expect(ok(await user.get(`/api/accounts/${ids.Checking}/import-profile`))).toMatchObject({
      mapping: { date: 1 },
    });
    const res = await upload(user, 'who,when,how much\nShop,2024-05-01,-2.00\n', { dryRun: 'true' });
    expect(res.body).toMatchObject({
      usedSavedMapping: true,
      rows: [{ description: 'Shop', postDate: '2024-05-01', amount: -200 }],
    });
  });
});

describe('bounds on every imported row', () => {
  it('refuses an amount beyond MAX_AMOUNT_CENTS naming the line, shortens long descriptions with a warning, skips control characters', async () => {
    const { user } = await userWith();
    const tooBig = `Date,Description,Amount\n2024-01-01,ok,1.00\n2024-01-02,huge,${MAX_AMOUNT_CENTS / 100 + 1}.00\n`;
    const refused = await upload(user, tooBig);
    expect(refused.status).toBe(422);
    expect(refused.body.error).toContain('Line 3');
    const long = 'x'.repeat(DESCRIPTION_MAX_LENGTH + 50);
    // A NUL in the first 8 KB marks a binary file; after them (and any other control character anywhere) it skips its row.
    const padding = Array.from({ length: 300 }, (_, i) => `2023-01-01,padding ${i},-0.01`).join('\n');
    const nul = `Date,Description,Amount\n2024-01-01,${long},-1.00\n2024-01-02,bell\u0007text,-2.00\n${padding}\n2024-01-02,bad\u0000text,-2.00\n2024-01-03,fine,-3.00\n`;
    const res = await upload(user, nul);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.imported).toBe(302);
    expect(res.body.skipped).toBe(2);
    expect(res.body.warnings.join(' ')).toContain('control characters');
    expect(res.body.warnings.join(' ')).toContain(`longer than ${DESCRIPTION_MAX_LENGTH} characters`);
    const rows = (await stored(user)).filter((r) => !r.description.startsWith('padding'));
    expect(rows.map((r) => r.description.length).sort((a, b) => a - b)).toEqual([4, DESCRIPTION_MAX_LENGTH]);
    // eslint-disable-next-line no-control-regex -- control characters are what this checks for
    expect((await stored(user)).some((r) => /[\u0000-\u0008]/.test(r.description))).toBe(false);
  });
});
