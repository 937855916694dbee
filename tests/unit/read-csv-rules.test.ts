import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  assignColumns,
  decodeCsvBytes,
  detectDelimiter,
  markDuplicates,
  normalizeDescription,
  readCsv,
  tokenize,
} from '../../src/shared/csv';
import { dateFormatCandidates, findDateFormat, parseDateWith } from '../../src/shared/csv/dates';

const ok = (text: string | Uint8Array, options = {}) => {
  const result = readCsv(text, options);
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result;
};

describe('encoding', () => {
  it.each([
    [[0xef, 0xbb, 0xbf, 0x41], 'utf-8-bom', 'A'],
    [[0xc3, 0xa9], 'utf-8', 'é'],
    [[0xe9, 0x80], 'windows-1252', 'é€'],
  ])('%j -> %s', (bytes, encoding, text) => {
    expect(decodeCsvBytes(new Uint8Array(bytes))).toMatchObject({ ok: true, encoding, text });
  });
  it('says on which line the byte that is not UTF-8 stands', () => {
    const bytes = new Uint8Array([...Buffer.from('a,b\nc,d\ne'), 0xe9, ...Buffer.from(',f\n')]);
    expect(decodeCsvBytes(bytes)).toMatchObject({ encoding: 'windows-1252', invalidLine: 3, text: 'a,b\nc,d\neé,f\n' });
  });
  it.each([
    [[0x50, 0x4b, 0x03, 0x04], 'ZIP'],
    [[0xd0, 0xcf, 0x11, 0xe0], 'Excel'],
    [[0x25, 0x50, 0x44, 0x46], 'PDF'],
    [[0x41, 0x00, 0x42], 'binary'],
  ])('refuses %j', (bytes, word) => {
    const result = decodeCsvBytes(new Uint8Array(bytes));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toContain(word);
  });
  it('reads a text file with a stray NUL in a row (its reader skips that row), refuses bytes full of controls', () => {
    const text = 'Date,Description,Amount\n2024-01-02,Sh\u0000op,-5.00\n';
    expect(decodeCsvBytes(new TextEncoder().encode(text))).toMatchObject({ ok: true, text });
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
    expect(decodeCsvBytes(png)).toMatchObject({ ok: false, message: expect.stringContaining('binary') });
  });
});

describe('delimiter and tokenizer', () => {
  it.each([
    ['a,b,c\n1,2,3\n', ','],
    ['a;b;c\n1;"2,5";3\n', ';'],
    ['a\tb\tc\n1\t2\t3\n', '\t'],
    ['a|b|c\n1|2|3\n', '|'],
  ])('%j uses %j', (text, delimiter) => {
    expect(detectDelimiter(text)).toBe(delimiter);
  });
  it('keeps quoted delimiters, doubled quotes and line breaks, with the start line of each record', () => {
    expect(tokenize('a,"b,1","say ""hi"""\r\n"multi\nline",x\n', ',')).toEqual([
      { line: 1, cells: ['a', 'b,1', 'say "hi"'] },
      { line: 2, cells: ['multi\nline', 'x'] },
    ]);
  });
});

describe('column roles', () => {
  it.each([
    [
      ['Transaction Date', 'Post Date', 'Description', 'Amount'],
      ['date', 'description', 'amount'],
    ],
    [
      ['Buchungstag', 'Verwendungszweck', 'Betrag', 'Saldo'],
      ['date', 'description', 'amount'],
    ],
    [
      ['Date opération', 'Libellé', 'Montant'],
      ['date', 'description', 'amount'],
    ],
    [
      ['Fecha', 'Concepto', 'Importe'],
      ['date', 'description', 'amount'],
    ],
    [
      ['Datum', 'Omschrijving', 'Af Bij', 'Bedrag (EUR)'],
      ['date', 'description', 'indicator', 'amount'],
    ],
    [
      ['Date', 'Payee', 'Paid out', 'Paid in'],
      ['date', 'counterparty', 'debit', 'credit'],
    ],
    [
      ['Date', 'Memo', 'Money out', 'Money in', 'Balance'],
      ['date', 'description', 'debit', 'credit'],
    ],
    [
      ['Date', 'Name', 'Withdrawal', 'Deposit', 'Category'],
      ['date', 'counterparty', 'debit', 'credit', 'category'],
    ],
    [
      ['Datum', 'Määrä', 'Selite'],
      ['date', 'amount', 'description'],
    ],
    [
      ['Date', 'Description', 'D/C', 'Amount'],
      ['date', 'description', 'indicator', 'amount'],
    ],
  ])('%j', (headers, roles) => {
    expect(assignColumns(headers).map((c) => c.role)).toEqual(roles);
  });
});

describe('dates', () => {
  it.each([
    ['YYYY-MM-DD', '2024-02-29', '2024-02-29'],
    ['YYYY-MM-DD', '2017-04-25T03:15:53', '2017-04-25'],
    ['YYYYMMDD', '20200213', '2020-02-13'],
    ['MM/DD/YYYY', '9/5/2025', '2025-09-05'],
    ['DD/MM/YYYY', '05/09/2025', '2025-09-05'],
    ['DD.MM.YYYY', '31.12.2019', '2019-12-31'],
    ['DD.MM.YY', '03.04.18', '2018-04-03'],
    ['MM/DD/YY', '1/2/99', '1999-01-02'],
    ['DD MMM YYYY', '05 Jan 2024', '2024-01-05'],
    ['DD MMM YYYY', '28-Mar-2020', '2020-03-28'],
    ['MMM DD, YYYY', 'Jan 5, 2024', '2024-01-05'],
  ])('%s reads %s', (format, text, iso) => {
    expect(parseDateWith(findDateFormat(format)!, text)).toBe(iso);
  });
  it.each([
    ['YYYY-MM-DD', '2023-02-29'],
    ['DD/MM/YYYY', '31/04/2024'],
    ['MM/DD/YYYY', '13/01/2024'],
  ])('%s refuses %s', (format, text) => {
    expect(parseDateWith(findDateFormat(format)!, text)).toBeNull();
  });
  it('infers the format from all rows: one row with day > 12 settles it', () => {
    expect(dateFormatCandidates(['01/02/2024', '03/04/2024']).map((f) => f.name)).toEqual(['MM/DD/YYYY', 'DD/MM/YYYY']);
    expect(dateFormatCandidates(['01/02/2024', '25/04/2024']).map((f) => f.name)).toEqual(['DD/MM/YYYY']);
  });
  it('refuses ambiguity without a previous format, uses the account’s last format otherwise, never today', () => {
    const csv = 'Date,Description,Amount\n01/02/2024,a,1.00\n03/04/2024,b,2.00\n';
    const refused = readCsv(csv);
    expect(refused).toMatchObject({
      ok: false,
      code: 'AMBIGUOUS_DATE',
      details: { candidates: ['MM/DD/YYYY', 'DD/MM/YYYY'] },
    });
    expect(ok(csv, { preferredDateFormat: 'DD/MM/YYYY' }).rows.map((r) => r.postDate)).toEqual([
      '2024-02-01',
      '2024-04-03',
    ]);
    expect(ok(csv, { dateFormat: 'MM/DD/YYYY' }).rows.map((r) => r.postDate)).toEqual(['2024-01-02', '2024-03-04']);
    expect(readCsv(csv, { dateFormat: 'YYYY-MM-DD' })).toMatchObject({ ok: false, code: 'BAD_DATE' });
  });
});

describe('amounts', () => {
  it('indicators and CR markers fix the sign; flip turns signed amounts and debit/credit pairs', () => {
    const pair = ok('Date,Description,Debit,Credit\n2024-01-01,a,10.00,\n2024-01-02,b,,20.00\n');
    expect(pair.rows.map((r) => r.amount)).toEqual([-1000, 2000]);
    const flippedPair = ok('Date,Description,Debit,Credit\n2024-01-01,a,10.00,\n2024-01-02,b,,20.00\n', {
      flipAmounts: true,
    });
    expect(flippedPair.rows.map((r) => r.amount)).toEqual([1000, -2000]);
    const indicator = ok('Date;Description;D/C;Amount\n2024-01-01;a;D;10,00\n2024-01-02;b;C;20,00\n');
    expect(indicator.rows.map((r) => r.amount)).toEqual([-1000, 2000]);
    const card = ok('Date,Description,Amount,\n2024-01-01,buy,£9.99,\n2024-01-02,pay,"+ £100.00",CR\n', {
      flipAmounts: true,
    });
    expect(card.rows.map((r) => r.amount)).toEqual([-999, 10000]);
  });
});

describe('preamble, footer, balance and continuation lines', () => {
  it('skips them and says why', () => {
    const result = ok(
      'Account statement\nIBAN,DE00\n\nDate,Description,Amount\n2024-01-01,Opening balance,100.00\n2024-01-02,Shop,-5.00\n,,\n,continued text,\n2024-01-03,Cafe,-3.00\nTotal,,-8.00\n',
    );
    expect(result.headerLine).toBe(4);
    expect(result.rows.map((r) => [r.line, r.description, r.amount])).toEqual([
      [6, 'Shop continued text', -500],
      [9, 'Cafe', -300],
    ]);
    expect(result.skipped.map((s) => [s.line, s.reason])).toEqual([
      [1, 'before the header'],
      [2, 'before the header'],
      [5, 'a balance line, not a transaction'],
      [8, 'continues the description of the row above'],
      [10, 'not a transaction'],
    ]);
  });
  it('joins a description spread over several columns and keeps formula-like text as plain text', () => {
    const result = ok('Date,Details,Memo,Amount\n2024-01-01,=HYPERLINK("x"),  lunch  ,-1.00\n');
    expect(result.rows[0].description).toBe('=HYPERLINK("x") lunch');
  });
  it('names the headers it saw when a column is missing, and asks for a mapping', () => {
    expect(readCsv('Name,Amount\nx,1\n')).toMatchObject({
      ok: false,
      code: 'NEEDS_MAPPING',
      message: expect.stringContaining('Headers seen: Name, Amount'),
      details: {
        needsMapping: true,
        sample: [
          ['Name', 'Amount'],
          ['x', '1'],
        ],
      },
    });
    expect(readCsv('Date,Text\n2024-01-01,x\n')).toMatchObject({
      ok: false,
      code: 'NEEDS_MAPPING',
      message: expect.stringContaining('no amount column'),
    });
    expect(readCsv('')).toMatchObject({ ok: false, code: 'EMPTY' });
  });
});

describe('duplicates by occurrence', () => {
  it('each stored row absorbs one equal row of the file', () => {
    const rows = [
      { postDate: '2024-01-01', amount: -450, description: 'Coffee  Shop' },
      { postDate: '2024-01-01', amount: -450, description: 'coffee shop' },
      { postDate: '2024-01-01', amount: -450, description: 'COFFEE SHOP ' },
    ];
    expect(markDuplicates(rows, new Map())).toEqual([false, false, false]);
    expect(markDuplicates(rows, new Map([['2024-01-01|-450|coffee shop', 2]]))).toEqual([true, true, false]);
    expect(normalizeDescription('  Café\tNoir ')).toBe('café noir');
  });
});

describe('a payee that only looks like an account number', () => {
  it('is the description when nothing else describes the row (found by the round-trip property)', () => {
    const result = readCsv(
      'Posting Date\tPayee\tAmount\r\n01/13/1990\tx0.X\t0.00\r\n01/14/1990\tNL91ABNA0417164300\t-1.00\r\n',
    );
    if (!result.ok) throw new Error(result.message);
    expect(result.rows.map((r) => r.description)).toEqual(['x0.X', 'NL91ABNA0417164300']);
  });
});

describe('round trip: random transactions written in each dialect read back the same', () => {
  const dialects = [
    {
      delimiter: ',',
      format: (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`,
      amount: (c: number) => centsText(c, '.', ''),
      header: ['Date', 'Description', 'Amount'],
    },
    {
      delimiter: ';',
      format: (y: number, m: number, d: number) => `${pad(d)}.${pad(m)}.${y}`,
      amount: (c: number) => centsText(c, ',', '.'),
      header: ['Buchungstag', 'Verwendungszweck', 'Betrag'],
    },
    {
      delimiter: '\t',
      format: (y: number, m: number, d: number) => `${pad(m)}/${pad(d)}/${y}`,
      amount: (c: number) => centsText(c, '.', ','),
      header: ['Posting Date', 'Payee', 'Amount'],
    },
    {
      delimiter: '|',
      format: (y: number, m: number, d: number) => `${y}${pad(m)}${pad(d)}`,
      amount: (c: number) => centsText(c, ',', ' '),
      header: ['Datum', 'Omschrijving', 'Bedrag'],
    },
  ];
  function pad(n: number) {
    return String(n).padStart(2, '0');
  }
  function centsText(cents: number, decimal: string, thousands: string) {
    const abs = Math.abs(cents);
    const whole = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, thousands);
    return `${cents < 0 ? '-' : ''}${whole}${decimal}${String(abs % 100).padStart(2, '0')}`;
  }
  const quote = (text: string, delimiter: string) =>
    /["\n\r]/.test(text) || text.includes(delimiter) ? `"${text.replace(/"/g, '""')}"` : text;

  it.each(dialects.map((d, i) => [i, d] as const))('dialect %i', (_i, dialect) => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            y: fc.integer({ min: 1990, max: 2060 }),
            m: fc.integer({ min: 1, max: 12 }),
            d: fc.integer({ min: 13, max: 28 }),
            cents: fc.integer({ min: -10_000_000, max: 10_000_000 }),
            description: fc.stringMatching(/^[A-Za-z][A-Za-z0-9 .,;'"&-]{0,30}[A-Za-z0-9]$/),
          }),
          { minLength: 1, maxLength: 25 },
        ),
        (rows) => {
          const lines = [dialect.header.join(dialect.delimiter)];
          for (const r of rows) {
            lines.push(
              [
                dialect.format(r.y, r.m, r.d),
                quote(r.description, dialect.delimiter),
                quote(dialect.amount(r.cents), dialect.delimiter),
              ].join(dialect.delimiter),
            );
          }
          const result = readCsv(`${lines.join('\r\n')}\r\n`);
          if (!result.ok) throw new Error(`${result.code}: ${result.message}\n${lines.join('\n')}`);
          expect(result.delimiter).toBe(dialect.delimiter);
          expect(result.rows.map((r) => [r.postDate, r.amount, r.description])).toEqual(
            rows.map((r) => [`${r.y}-${pad(r.m)}-${pad(r.d)}`, r.cents, r.description.replace(/\s+/g, ' ').trim()]),
          );
        },
      ),
      { numRuns: 60 },
    );
  });
});
