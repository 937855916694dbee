import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

/**
 * Text that arrives in a bank file, in every format the importer reads: bidirectional overrides are taken out of
 * descriptions, payees, memos and categories (the preview and the import say how many), a control character is
 * never stored and a file of nothing else names its lines, a file that is not UTF-8 says which encoding it was read
 * as, and an SGML OFX statement whose CURDEF comes after its rows still gives them its currency.
 */
let server: TestServer;
let user: ApiUser;
beforeAll(async () => {
  server = await startServer();
  user = await signUp(server.url);
  ok(await user.post('/api/accounts', { name: 'Current', type: 'checking' }));
});
afterAll(() => server.close());

function upload(file: string | Uint8Array, dryRun = true) {
  const body = new FormData();
  body.append('file', new Blob([file as BlobPart]), 'statement');
  body.append('account', 'Current');
  if (dryRun) body.append('dryRun', 'true');
  return rest(server.url, 'POST', '/api/upload', { token: user.token, body });
}

const RLO = '\u202e';
const RLI = '\u2067';
const PDI = '\u2069';

const sgmlOfx = (transactions: string, curdef = '<CURDEF>EUR') =>
  [
    'OFXHEADER:100',
    'DATA:OFXSGML',
    'VERSION:102',
    '',
    '<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS>',
    '<BANKACCTFROM><BANKID>1<ACCTID>9<ACCTTYPE>CHECKING</BANKACCTFROM>',
    '<BANKTRANLIST><DTSTART>20240101<DTEND>20240131',
    transactions,
    '</BANKTRANLIST><LEDGERBAL><BALAMT>1.00<DTASOF>20240131</LEDGERBAL>',
    curdef,
    '</STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>',
  ].join('\n');
const ofxRow = (name: string, memo: string, fitid = 'F1') =>
  `<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240102<TRNAMT>-1.00<FITID>${fitid}<NAME>${name}<MEMO>${memo}</STMTTRN>`;
const qif = (payee: string, memo: string) => `!Type:Bank\nD01/22/2024\nT-1.00\nP${payee}\nM${memo}\n^\n`;
const camt = (creditor: string, remittance: string) =>
  `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><Stmt><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct><Ntry><Amt Ccy="EUR">3.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><BookgDt><Dt>2024-01-07</Dt></BookgDt><NtryDtls><TxDtls><RltdPties><Cdtr><Nm>${creditor}</Nm></Cdtr></RltdPties><RmtInf><Ustrd>${remittance}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry></Stmt></BkToCstmrStmt></Document>`;

const hasBidi = (text: string) => /[\u202a-\u202e\u2066-\u2069]/.test(text);

describe('bidirectional overrides in imported text', () => {
  it.each([
    [
      'CSV description and category',
      `Date,Description,Category,Amount\n2024-01-02,Inv${RLO}oice,Fo${RLI}od${PDI},-5.00\n`,
      3,
    ],
    ['OFX payee and memo', sgmlOfx(ofxRow(`Pay${RLO}ee`, `Me${RLI}mo${PDI}`)), 3],
    ['QIF payee and memo', qif(`Pay${RLO}ee`, `Me${RLO}mo`), 2],
    ['CAMT creditor and remittance', camt(`Cred${RLI}itor${PDI}`, `Ref${RLO}`), 3],
  ])('are taken out of the %s, and the preview and the import say how many', async (_, file, removed) => {
    const preview = await upload(file);
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    for (const row of preview.body.rows as { description: string; category: string | null }[]) {
      expect(hasBidi(row.description)).toBe(false);
      expect(hasBidi(row.category ?? '')).toBe(false);
    }
    const warning = (preview.body.warnings as string[]).find((w) => w.includes('bidirectional override'));
    expect(warning).toContain(`${removed} bidirectional override characters`);
    expect(warning).toMatch(/line \d/);

    const imported = await upload(file, false);
    expect(imported.status).toBe(201);
    expect((imported.body.warnings as string[]).join(' ')).toContain(`${removed} bidirectional override characters`);
    const stored = ok<{ description: string }[]>(
      await user.get('/api/transactions?start_date=2000-01-01&end_date=2100-01-01'),
    );
    expect(stored.some((row) => hasBidi(row.description))).toBe(false);
  });
});

describe('a file whose only row holds a control character', () => {
  it.each([
    ['CSV, a bell in the description', 'Date,Description,Amount\n2024-01-02,Sh\u0007op,-5.00\n', 2],
    ['CSV, a NUL in the description', 'Date,Description,Amount\n2024-01-02,Sh\u0000op,-5.00\n', 2],
    ['CSV, an escape in the date', 'Date,Description,Amount\n2024-01-02\u001b,Shop,-5.00\n', 2],
    ['CSV without a header', '2024-01-02;Sh\u0001op;-5,00\n', 1],
    ['OFX', sgmlOfx(ofxRow('Sh\u0007op', 'memo')), 8],
    ['QIF', qif('Pay\u0007ee', 'memo'), 2],
    ['CAMT', camt('Cred\u0001itor', 'ref'), 1],
  ])('%s: answers an error naming that line, not "no transactions"', async (_, file, line) => {
    const preview = await upload(file);
    expect(preview.status, JSON.stringify(preview.body)).toBe(400);
    expect(preview.body.error).toContain(`line ${line} (contains control characters)`);
    expect(preview.body.error).not.toMatch(/no transactions were found/i);
  });
});

describe('a file that is not UTF-8', () => {
  const withByte = (before: string, after: string) =>
    new Uint8Array([...Buffer.from(before), 0xe9, ...Buffer.from(after)]);
  it.each([
    ['CSV', withByte('Date,Description,Amount\n2024-01-02,Caf', ',-5.00\n'), 2],
    [
      'OFX',
      withByte(sgmlOfx(ofxRow('Caf', 'memo')).split('Caf')[0] + 'Caf', sgmlOfx(ofxRow('Caf', 'memo')).split('Caf')[1]),
      8,
    ],
    ['QIF', withByte('!Type:Bank\nD01/22/2024\nT-1.00\nPCaf', '\n^\n'), 4],
  ])('%s read as Windows-1252 says so in the preview and the import, naming the line', async (_, file, line) => {
    const preview = await upload(file);
    expect(preview.status).toBe(200);
    expect(preview.body.encoding).toBe('windows-1252');
    expect(preview.body.rows[0].description).toContain('Café');
    const warning = (preview.body.warnings as string[]).find((w) => w.includes('Windows-1252'));
    expect(warning).toContain(`line ${line}`);
    expect(warning).toMatch(/not valid UTF-8/);
    const imported = await upload(file, false);
    expect((imported.body.warnings as string[]).join(' ')).toContain('Windows-1252');
  });
});

describe('SGML OFX with CURDEF after the rows', () => {
  it('gives every statement’s rows that statement’s currency', async () => {
    const statement = (id: number, name: string, currency: string, tag = 'STMT', from = 'BANKACCTFROM') =>
      `<${tag}TRNRS><${tag}RS><${from}><ACCTID>${id}</${from}><BANKTRANLIST>\n${ofxRow(name, 'm', `F${id}a`)}\n${ofxRow(`${name} 2`, 'm', `F${id}b`)}\n</BANKTRANLIST><CURDEF>${currency}</${tag}RS></${tag}TRNRS>`;
    const file = [
      'OFXHEADER:100',
      'DATA:OFXSGML',
      '',
      '<OFX><BANKMSGSRSV1>',
      statement(1, 'Pound shop', 'GBP'),
      statement(2, 'Yen shop', 'JPY'),
      '</BANKMSGSRSV1><CREDITCARDMSGSRSV1>',
      statement(3, 'Franc shop', 'CHF', 'CCSTMT', 'CCACCTFROM'),
      '</CREDITCARDMSGSRSV1></OFX>',
    ].join('\n');
    const preview = await upload(file);
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    const currencies = (preview.body.rows as { description: string; currency: string | null }[]).map((row) => [
      row.description.split(' — ')[0],
      row.currency,
    ]);
    expect(currencies).toEqual([
      ['Pound shop', 'GBP'],
      ['Pound shop 2', 'GBP'],
      ['Yen shop', 'JPY'],
      ['Yen shop 2', 'JPY'],
      ['Franc shop', 'CHF'],
      ['Franc shop 2', 'CHF'],
    ]);
  });
});
