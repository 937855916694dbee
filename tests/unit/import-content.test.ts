import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeHeader, readCsv } from '../../src/shared/csv';
import { joinDescription, joinParts } from '../../src/shared/csv/describe';
import { readImport } from '../../src/shared/import/read-file';

const ok = (text: string, options = {}) => {
  const result = readImport(text, options);
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result;
};
const rowsOf = (text: string, options = {}) => ok(text, options).rows.map((r) => [r.postDate, r.amount, r.description]);
const rolesOf = (text: string) => ok(text).columns.map((c) => [c.index, c.role]);

describe('header words in spellings the lists never held', () => {
  it.each([
    ['Empfänger*in', 'empfanger'],
    ['Zahlungsempfänger:in', 'zahlungsempfanger'],
    ['Auftraggeber/-in', 'auftraggeber'],
    ['EmpfängerIn', 'empfanger'],
    ['Empfänger(in)', 'empfanger'],
    ['Zahlungspflichtige*r', 'zahlungspflichtiger'],
    ['Debit EUR', 'debit'],
    ['Crédit euros', 'credit'],
    ['Betrag in CHF', 'betrag'],
    ['#Data operacji', 'data operacji'],
    ['Beløb', 'belob'],
    ['Wpływy', 'wplywy'],
    ['Paid in', 'paid in'],
    ['Origin', 'origin'],
  ])('%s reads as %s', (header, normalized) => {
    expect(normalizeHeader(header)).toBe(normalized);
  });

  it.each([
    ['Bokföringsdag;Text;Belopp\n2024-01-02;Shop;-1,00\n', 0, 'date'],
    ['Bogføringsdato;Tekst;Beløb\n02.01.2024;Shop;-1,00\n', 0, 'date'],
    ['F. Valor;Concepto;Importe\n13/01/2024;Shop;-1,00\n', 0, 'date'],
    ['Päivämäärä;Selite;Määrä\n02.01.2024;Shop;-1,00\n', 0, 'date'],
    ['Datum zaúčtování;Popis;Částka\n02.01.2024;Shop;-1,00\n', 0, 'date'],
  ])('date headers in more languages: %j', (csv, index, role) => {
    expect(rolesOf(csv)).toContainEqual([index, role]);
  });
});

describe('roles told by content', () => {
  it('two number columns never filled on the same row are money out and money in, oriented by the running balance', () => {
    // Money in first, then money out: only the balance tells.
    const csv = '13/01/2024,Salary,100.00,,1100.00\n14/01/2024,Shop,,20.00,1080.00\n15/01/2024,Cafe,,3.50,1076.50\n';
    expect(rowsOf(csv).map((r) => r[1])).toEqual([10000, -2000, -350]);
    expect(rolesOf(csv)).toEqual([
      [0, 'date'],
      [1, 'counterparty'],
      [2, 'credit'],
      [3, 'debit'],
    ]);
  });

  // Two equal amounts in a row fit a newest-first reading the other way round: the balance must be read in one order.
  it.each([
    [
      'money in first, oldest first',
      '2024-01-01,Shop,,0.01,9999.99\n2024-01-02,Pay,4999.96,,14999.95\n2024-01-03,Pay,4999.96,,19999.91\n',
      [-1, 499996, 499996],
    ],
    [
      'money out first, oldest first',
      '2024-01-01,Shop,0.01,,9999.99\n2024-01-02,Pay,,4999.96,14999.95\n2024-01-03,Pay,,4999.96,19999.91\n',
      [-1, 499996, 499996],
    ],
    [
      'money in first, newest first',
      '2024-01-03,Pay,4999.96,,19999.91\n2024-01-02,Pay,4999.96,,14999.95\n2024-01-01,Shop,,0.01,9999.99\n',
      [499996, 499996, -1],
    ],
    [
      'money out first, newest first',
      '2024-01-03,Shop,20.00,,960.00\n2024-01-02,Shop,20.00,,980.00\n2024-01-01,Pay,,0.50,1000.00\n',
      [-2000, -2000, 50],
    ],
  ])('a running balance orients the pair with two equal amounts in a row: %s', (_name, csv, amounts) => {
    expect(rowsOf(csv).map((r) => r[1])).toEqual(amounts);
  });

  it('without a balance, the pair is read in the usual order and the preview says so', () => {
    const result = ok('13/01/2024,Shop,20.00,\n14/01/2024,Salary,,100.00\n15/01/2024,Cafe,3.50,\n');
    expect(result.rows.map((r) => r.amount)).toEqual([-2000, 10000, -350]);
    expect(result.notes.join(' ')).toContain('usual order');
  });

  it('a column of the same few words is the type, a varying one the counterparty', () => {
    const csv =
      'Date;Kind;Who;Amount\n2024-01-02;Card;Bakery;-1,00\n2024-01-03;Card;Cafe;-2,00\n2024-01-04;Transfer;Landlord;-3,00\n2024-01-05;Card;Shop;-4,00\n2024-01-06;Transfer;Employer;5,00\n2024-01-07;Card;Bar;-6,00\n';
    expect(rolesOf(csv)).toEqual([
      [0, 'date'],
      [1, 'description-fallback'],
      [2, 'counterparty'],
      [3, 'amount'],
    ]);
    expect(rowsOf(csv)[0]).toEqual(['2024-01-02', -100, 'Bakery']);
  });

  it('a header naming a date column that holds no dates asks for a mapping with a sample', () => {
    const result = readCsv('Date,Description,Amount\nShop,2024-01-02,-5.00\n');
    expect(result).toMatchObject({ ok: false, code: 'NEEDS_MAPPING', details: { needsMapping: true } });
  });

  it('a headerless file with a total line under its rows is read, the total line skipped', () => {
    const result = ok('13/01/2024,Shop,-5.00\n14/01/2024,Cafe,-3.00\n15/01/2024,Salary,100.00\nTotal,,92.00\n');
    expect(result.rows.map((r) => r.amount)).toEqual([-500, -300, 10000]);
    expect(result.skipped.map((s) => [s.line, s.reason])).toEqual([[4, 'not a transaction']]);
  });

  it('never stores an empty description while a cell of the row has words', () => {
    const result = ok('Date,Description,Amount,Note\n2024-01-02,,-5.00,Parking ticket\n');
    expect(result.rows[0]?.description).toBe('Parking ticket');
  });

  it('property: a headerless file of paid out, paid in and a running balance reads every sign right', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.integer({ min: -500_000, max: 500_000 }).filter((n) => n !== 0),
          { minLength: 3, maxLength: 30 },
        ),
        fc.boolean(),
        (amounts, inFirst) => {
          let balance = 1_000_000;
          const cents = (n: number) => `${Math.floor(Math.abs(n) / 100)}.${String(Math.abs(n) % 100).padStart(2, '0')}`;
          const lines = amounts.map((amount, i) => {
            balance += amount;
            const out = amount < 0 ? cents(amount) : '';
            const inn = amount > 0 ? cents(amount) : '';
            const pair = inFirst ? `${inn},${out}` : `${out},${inn}`;
            return `2024-01-${String((i % 28) + 1).padStart(2, '0')},Shop ${i},${pair},${balance < 0 ? '-' : ''}${cents(balance)}`;
          });
          const read = readCsv(`${lines.join('\n')}\n`);
          // Every amount of one sign leaves no pair to tell apart: such files are asked about or read by order.
          if (amounts.every((a) => a > 0) || amounts.every((a) => a < 0)) return;
          if (!read.ok) throw new Error(read.message);
          expect(read.rows.map((r) => r.amount)).toEqual(amounts);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('the owner’s spelling over an upper-case copy', () => {
  it.each([
    [['ICA NARA VASTRA', 'ICA Nära Västra'], 'ICA Nära Västra'],
    [['LON', 'Lön Exempelbolaget AB'], 'Lön Exempelbolaget AB'],
    [['Rent', 'Rent'], 'Rent'],
  ])('joinParts %j -> %s', (parts, text) => {
    expect(joinParts(parts)).toBe(text);
  });
  it.each([
    ['Pret A Manger', 'PRET A MANGER LONDON GBR', 'Pret A Manger LONDON GBR'],
    ['NETFLIX.COM', 'netflix.com', 'NETFLIX.COM'],
    ['Shop', 'Bread', 'Shop — Bread'],
  ])('joinDescription %s + %s -> %s', (a, b, text) => {
    expect(joinDescription(a, b)).toBe(text);
  });
});

describe('statements', () => {
  const sgml = (curdefAfter: boolean) =>
    [
      'OFXHEADER:100',
      'DATA:OFXSGML',
      '',
      '<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS>',
      curdefAfter ? '' : '<CURDEF>EUR',
      '<BANKACCTFROM><ACCTID>1</BANKACCTFROM><BANKTRANLIST>',
      '<STMTTRN><DTPOSTED>20240102<TRNAMT>-1.00<FITID>A<NAME>Shop</STMTTRN>',
      '</BANKTRANLIST>',
      curdefAfter ? '<CURDEF>EUR' : '',
      '</STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>',
    ].join('\n');
  it.each([false, true])(
    'OFX rows take the statement currency wherever CURDEF stands (after the rows: %s)',
    (after) => {
      expect(ok(sgml(after)).rows[0]?.currency).toBe('EUR');
    },
  );

  it('a file whose only row holds a control character names that row', () => {
    const result = readImport('Date,Description,Amount\n2024-01-02,Sh\u0000op,-5.00\n');
    expect(result).toMatchObject({ ok: false, code: 'NO_ROWS' });
    expect(!result.ok && result.message).toContain('line 2 (contains control characters)');
  });

  it('flipAmounts turns OFX signs, never CAMT entries, whose direction is stated', () => {
    expect(ok(sgml(false), { flipAmounts: true }).rows[0]?.amount).toBe(100);
  });
});
