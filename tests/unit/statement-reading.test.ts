import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assignColumns, joinDescription, normalizeHeader, readCsv, type CsvReadSuccess } from '../../src/shared/csv';
import { joinParts } from '../../src/shared/csv/describe';
import { mappingDateFormats } from '../../src/shared/csv/mapping';
import { readImport } from '../../src/shared/import/read-file';
import { mappingFromChoices } from '../../src/client/features/upload/MappingPicker';
import { autoTransactionType } from '../../src/shared/schemas/import';

/** Table-driven tests of how statements are read, each over files written in the style it names. */
const ok = (text: string | Uint8Array, options = {}): CsvReadSuccess => {
  const result = readImport(text, options);
  if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
  return result;
};
const rowsOf = (result: CsvReadSuccess) => result.rows.map((r) => [r.postDate, r.amount, r.description]);

describe('header names in any spelling', () => {
  it.each([
    ['PostedDate', 'posted date'],
    ['TransactionAmount', 'transaction amount'],
    ['Amount (USD)', 'amount'],
    ['Betrag [EUR]', 'betrag'],
    ['Debits(-)', 'debits'],
    ['Amount (fee)', 'amount fee'],
    ['Auftraggeber / Empfänger', 'auftraggeber/empfanger'],
    ['BOOKING_DATE', 'booking date'],
  ])('%s reads as %s', (header, normal) => {
    expect(normalizeHeader(header)).toBe(normal);
  });

  it.each([
    [
      ['PostedDate', 'Payee', 'TransactionAmount'],
      ['date', 'counterparty', 'amount'],
    ],
    [
      ['Booking Date', 'Value Date', 'Text', 'Amount (EUR)'],
      ['date', 'description', 'amount'],
    ],
    [
      ['StartedDate', 'CompletedDate', 'Description', 'Amount', 'Fee', 'Currency'],
      ['date', 'description', 'amount', 'currency'],
    ],
    [
      ['Value date', 'Transaction date', 'Narrative', 'Debit Amount (GBP)', 'Credit Amount (GBP)'],
      ['date', 'description', 'debit', 'credit'],
    ],
    [
      ['Settlement Date', 'Trade Date', 'Details', 'Net Amount'],
      ['date', 'description', 'amount'],
    ],
    [
      ['Datum', 'Valutadatum', 'Buchungstag', 'Betrag'],
      ['date', 'amount'],
    ],
    // A qualifier in front of a plain name reads like the plain name.
    [
      ['TransactionDate', 'BookingText', 'PostingAmount(EUR)'],
      ['date', 'description', 'amount'],
    ],
    [
      ['Booking Date', 'Payment Details', 'Transaction Currency', 'Booked Amount'],
      ['date', 'description', 'currency', 'amount'],
    ],
    [
      ['Date', 'Transaction Category', 'Description', 'Amount'],
      ['date', 'category', 'description', 'amount'],
    ],
    // ... but never turns an excluded column (a balance, an id) into one.
    [
      ['Date', 'Booking Balance', 'Transaction ID', 'Description', 'Amount'],
      ['date', 'description', 'amount'],
    ],
  ])('%j', (headers, roles) => {
    expect(assignColumns(headers).map((c) => c.role)).toEqual(roles);
  });

  it.each([
    ['Value Date,Booking Date,Text,Amount\n02.01.2024,31.12.2023,Shop,-1,00\n', 'Booking Date', '2023-12-31'],
    ['CompletedDate,StartedDate,Description,Amount\n2024-01-03,2024-01-01,Shop,-1.00\n', 'StartedDate', '2024-01-01'],
    [
      'Settlement date;Transaction date;Details;Amount\n03/01/2024;01/01/2024;Shop;-1,00\n04/01/2024;02/01/2024;Shop;-1,00\n15/01/2024;13/01/2024;Shop;-1,00\n',
      'Transaction date',
      '2024-01-01',
    ],
  ])('prefers the booking or transaction date and says which: %#', (file, column, first) => {
    const result = ok(file);
    expect(result.dateColumn).toBe(column);
    expect(result.rows[0].postDate).toBe(first);
  });
});

describe('who the money went to', () => {
  it.each([
    [
      'counterparty then purpose',
      'Date,Payee,Memo,Amount\n2024-01-01,ACME Ltd,Invoice 42,-10.00\n',
      'ACME Ltd — Invoice 42',
    ],
    ['purpose equal to the counterparty', 'Date,Payee,Memo,Amount\n2024-01-01,ACME Ltd,acme ltd,-10.00\n', 'ACME Ltd'],
    [
      'purpose contained in the counterparty',
      'Date,Payee,Memo,Amount\n2024-01-01,ACME Ltd London,London,-10.00\n',
      'ACME Ltd London',
    ],
    [
      'German counterparty and purpose',
      'Buchungstag;Auftraggeber/Empfänger;Verwendungszweck;Betrag\n01.01.2024;Stadtwerke;Strom Januar;-50,00\n',
      'Stadtwerke — Strom Januar',
    ],
    [
      'Dutch counterparty',
      'Datum;Tegenrekeninghouder;Omschrijving;Bedrag\n01-01-2024;Jan Jansen;Huur;-500,00\n',
      'Jan Jansen — Huur',
    ],
    ['French counterparty', 'Date;Nom du tiers;Libellé;Montant\n01/01/2024;EDF;Facture;-50,00\n', 'EDF — Facture'],
    [
      'an IBAN is not a name',
      'Date,Counterparty,Name,Description,Amount\n2024-01-01,NL91ABNA0417164300,Bob,Lunch,-5.00\n',
      'Bob — Lunch',
    ],
    [
      'a party pair column (either side, by direction)',
      'Booking date;Value date;Beneficiary / Originator;Payment Details;Debit;Credit;Currency\n2024-01-05;2024-01-05;Stadtwerke;Strom Januar;-45,20;;EUR\n',
      'Stadtwerke — Strom Januar',
    ],
    [
      'purpose cells that repeat each other read once',
      'ID,Date,Amount,Description,Payment Reference,Payer Name,Payee Name\nT-3,2024-01-15,1200.00,Received money from ACME GMBH with reference Salary,Salary,ACME GMBH,\n',
      'ACME GMBH — Received money from ACME GMBH with reference Salary',
    ],
  ])('%s', (_label, file, description) => {
    expect(ok(file).rows[0].description).toBe(description);
  });

  it('takes the recipient for money out and the payer for money in, never the holder', () => {
    const file =
      'Date,Note,From,To,Amount\n2024-01-01,Tutoring,Me Holder,Tom,-20.00\n2024-01-02,Rent,Sally,Me Holder,500.00\n';
    expect(ok(file).rows.map((r) => r.description)).toEqual(['Tom — Tutoring', 'Sally — Rent']);
  });

  it.each([
    [
      'a name column holding the holder on every row',
      'Buchungstag;Name;Verwendungszweck;Betrag\n01.01.2024;Max Mustermann;Miete;-500,00\n02.01.2024;Max Mustermann;Strom;-50,00\n03.01.2024;Max Mustermann;Gas;-40,00\n',
      ['Miete', 'Strom', 'Gas'],
      "'Name'",
    ],
    [
      'a counterparty column holding the account name on every row',
      'Date,Counterparty,Memo,Amount\n2024-01-01,Joint Account,Coffee,-1.00\n2024-01-02,Joint Account,Tea,-2.00\n2024-01-03,Joint Account,Cake,-3.00\n',
      ['Coffee', 'Tea', 'Cake'],
      "'Counterparty'",
    ],
  ])('never starts the description with %s', (_label, file, descriptions, named) => {
    const result = ok(file);
    expect(result.rows.map((r) => r.description)).toEqual(descriptions);
    expect(result.notes.join(' ')).toContain(named);
  });

  it('never uses a column holding the same text on every row', () => {
    const file =
      'Date,Product,Description,Details,Amount\n2024-01-01,Current,Main account,Coffee,-1.00\n2024-01-02,Current,Main account,Tea,-2.00\n2024-01-03,Current,Main account,Cake,-3.00\n';
    const result = ok(file);
    expect(result.rows.map((r) => r.description)).toEqual(['Coffee', 'Tea', 'Cake']);
    expect(result.notes.join(' ')).toContain("'Description'");
  });
});

describe('sign markers on only some rows', () => {
  it.each([
    [
      'CR in an unnamed column (card statement)',
      'Date,Description,Amount,\n01-Mar-2024,Shop,£9.99,\n02-Mar-2024,Payment,£100.00,CR\n03-Mar-2024,Cafe,£3.50,\n',
      [-999, 10000, -350],
    ],
    [
      'CR suffix in the amount',
      'Date,Description,Amount\n2024-03-01,Shop,9.99\n2024-03-02,Payment,100.00 CR\n',
      [-999, 10000],
    ],
    [
      'DR marks on a savings export',
      'Date,Description,Amount,Type\n2024-03-01,Interest,1.00,\n2024-03-02,Fee,2.00,DR\n',
      [100, -200],
    ],
    [
      'Af/Bij on every row stays as marked',
      'Datum;Omschrijving;Af Bij;Bedrag\n14-03-2024;a;Af;1,00\n15-03-2024;b;Bij;2,00\n',
      [-100, 200],
    ],
  ])('%s', (_label, file, amounts) => {
    const result = ok(file);
    expect(result.rows.map((r) => r.amount)).toEqual(amounts);
  });

  it('says so in the preview notes, and the flip switch does not undo it', () => {
    const file = 'Date,Description,Amount,\n01-Mar-2024,Shop,£9.99,\n02-Mar-2024,Payment,£100.00,CR\n';
    expect(ok(file).notes.join(' ')).toContain('unmarked rows were read as money out');
    expect(ok(file, { flipAmounts: true }).rows.map((r) => r.amount)).toEqual([-999, 10000]);
  });
});

describe('preambles', () => {
  it.each([
    [
      'key-value lines with colons',
      'Account:,12345678\nCurrency:,EUR\nPeriod:,01.01.2024 - 31.01.2024\nDate,Description,Amount\n2024-01-05,Shop,-1.00\n',
      4,
    ],
    [
      'a key-value line that names a date and an amount',
      'Date: 2024-01-31;Amount: 100,00\n\nDatum;Omschrijving;Bedrag\n2024-01-05;Shop;-1,00\n',
      3,
    ],
    [
      'a title and a disclaimer',
      '"Statement for account 1234, amounts in USD"\nThis export is provided as is.\nDate,Description,Amount\n2024-01-05,Shop,-1.00\n',
      3,
    ],
    [
      'a header-like line not followed by rows',
      'Date,Amount\nsummary,only\n\nDate,Description,Amount\n2024-01-05,Shop,-1.00\n',
      4,
    ],
    [
      'a summary block with its own date and amount above the table',
      'Date,Amount\n31/01/2024,1000.00\n\nDate,Description,Amount\n2024-01-05,Shop,-1.00\n',
      4,
    ],
    [
      'key-value lines without colons',
      'Account Number,12345678\nStatement Period,01/01/2024 - 31/01/2024\nDate,Description,Amount\n2024-01-05,Shop,-1.00\n',
      3,
    ],
  ])('%s', (_label, file, headerLine) => {
    const result = ok(file);
    expect(result.headerLine).toBe(headerLine);
    expect(result.rows.map((r) => [r.postDate, r.amount])).toEqual([['2024-01-05', -100]]);
  });
});

describe('headerless files and columns it cannot name', () => {
  const headerless = '2024-01-05;Bakery;-3,20\n2024-01-06;Employer;2500,00\n';
  it('reads a headerless file whose content tells the columns, and says which column was taken for what', () => {
    const result = ok(headerless);
    expect(rowsOf(result)).toEqual([
      ['2024-01-05', -320, 'Bakery'],
      ['2024-01-06', 250000, 'Employer'],
    ]);
    expect(result.columns.map((c) => [c.index, c.role, c.byContent])).toEqual([
      [0, 'date', true],
      [1, 'counterparty', true],
      [2, 'amount', true],
    ]);
    expect(result.notes.join(' ')).toContain('Told by their content');
  });
  it('asks for a mapping with the first rows and a suggestion when the content does not tell the amount', () => {
    expect(readCsv('2024-01-05;Bakery;-3,20;-1,00\n2024-01-06;Employer;2500,00;7,00\n')).toMatchObject({
      ok: false,
      code: 'NEEDS_MAPPING',
      details: {
        needsMapping: true,
        sample: [
          ['2024-01-05', 'Bakery', '-3,20', '-1,00'],
          ['2024-01-06', 'Employer', '2500,00', '7,00'],
        ],
        suggestedMapping: { header: false, date: 0, amount: 2, description: [1] },
      },
    });
  });
  it.each([
    [
      'amount',
      { header: false, date: 0, description: [1], amount: 2 },
      headerless,
      [
        ['2024-01-05', -320, 'Bakery'],
        ['2024-01-06', 250000, 'Employer'],
      ],
    ],
    [
      'debit and credit',
      { header: true, date: 1, description: [0, 4], debit: 2, credit: 3 },
      'Wer,Wann,Aus,Ein,Was\nShop,2024-01-05,3.20,,Bread\nWork,2024-01-06,,100,Pay\n',
      [
        ['2024-01-05', -320, 'Shop Bread'],
        ['2024-01-06', 10000, 'Work Pay'],
      ],
    ],
    [
      'a date format',
      { header: false, date: 0, description: [1], amount: 2, dateFormat: 'MM/DD/YYYY' },
      '01/02/2024,a,1.00\n03/04/2024,b,2.00\n',
      [
        ['2024-01-02', 100, 'a'],
        ['2024-03-04', 200, 'b'],
      ],
    ],
  ])('reads with a mapping of %s', (_label, mapping, file, rows) => {
    const result = ok(file, { mapping });
    expect(rowsOf(result)).toEqual(rows);
    expect(result.mapping?.mapping).toEqual(mapping);
  });
  it('uses a saved mapping only for a file of the same shape', () => {
    const saved = { mapping: { header: false, date: 0, description: [1], amount: 2 }, columnCount: 3, headers: [] };
    expect(ok(headerless, { savedMapping: saved }).usedSavedMapping).toBe(true);
    expect(
      ok('Date,Description,Amount,Category\n2024-01-01,a,1.00,x\n', { savedMapping: saved }).usedSavedMapping,
    ).toBe(false);
  });

  // A saved mapping is a promise about one bank's layout: it is used where the file fits it,
  // never to misread a file of another layout that happens to have as many columns.
  const savedHeaderless = {
    mapping: { header: false, date: 0, description: [1], amount: 2 },
    columnCount: 3,
    headers: [],
  };
  const savedDated = {
    mapping: { header: false, date: 0, description: [1], amount: 2, dateFormat: 'DD.MM.YYYY' },
    columnCount: 3,
    headers: [],
  };
  const savedWithHeader = {
    mapping: { header: true, date: 1, description: [0], amount: 2 },
    columnCount: 3,
    headers: ['Who', 'When', 'How much'],
  };
  it.each([
    [
      'a headerless file of its layout',
      savedHeaderless,
      '2024-02-05;Bakery;-4,10\n2024-02-06;Cafe;-2,00\n',
      [
        ['2024-02-05', -410, 'Bakery'],
        ['2024-02-06', -200, 'Cafe'],
      ],
    ],
    [
      'a headerless file after a key-value preamble',
      savedHeaderless,
      'Account:;1234\n2024-02-05;Bakery;-4,10\n',
      [['2024-02-05', -410, 'Bakery']],
    ],
    ['its dated layout', savedDated, '05.02.2024;Bakery;-4,10\n', [['2024-02-05', -410, 'Bakery']]],
    [
      'a headerless file with a trailing delimiter on every line',
      savedHeaderless,
      '2024-02-05;Bakery;-4,10;\n2024-02-06;Cafe;-2,00;\n',
      [
        ['2024-02-05', -410, 'Bakery'],
        ['2024-02-06', -200, 'Cafe'],
      ],
    ],
    [
      'its own header, in another letter case',
      savedWithHeader,
      'who,when,how much\nShop,2024-05-01,-2.00\n',
      [['2024-05-01', -200, 'Shop']],
    ],
    [
      'its own header after a preamble of as many cells',
      savedWithHeader,
      'Statement,for,May\nWho,When,How much\nShop,2024-05-01,-2.00\n',
      [['2024-05-01', -200, 'Shop']],
    ],
  ])('a saved mapping reads %s', (_label, savedMapping, file, rows) => {
    const result = ok(file, { savedMapping });
    expect(result.usedSavedMapping).toBe(true);
    expect(rowsOf(result)).toEqual(rows);
  });

  it.each([
    [
      'a file with a header it can read, columns in another order',
      savedHeaderless,
      'Date,Amount,Description\n2024-01-05,-1.00,Shop\n2024-01-06,-2.00,Cafe\n',
      [
        ['2024-01-05', -100, 'Shop'],
        ['2024-01-06', -200, 'Cafe'],
      ],
    ],
    [
      'a file with a header it can read, columns in the same order',
      savedHeaderless,
      'Date,Description,Amount\n2024-01-05,Shop,-1.00\n',
      [['2024-01-05', -100, 'Shop']],
    ],
    [
      'a file whose header differs from the saved one',
      savedWithHeader,
      'Payee,Date,Amount\nShop,2024-05-01,-2.00\n',
      [['2024-05-01', -200, 'Shop']],
    ],
  ])('a saved mapping is not used for %s: the header is read', (_label, savedMapping, file, rows) => {
    const result = ok(file, { savedMapping });
    expect(result.usedSavedMapping).toBe(false);
    expect(rowsOf(result)).toEqual(rows);
    expect(result.notes.join(' ')).toContain('saved mapping');
  });

  it.each([
    [
      'amount and description swapped',
      savedHeaderless,
      '2024-01-05;-3,20;Bakery\n2024-01-06;2500,00;Employer\n',
      'column 3',
    ],
    [
      'a balance where the description was',
      savedHeaderless,
      '2024-01-05;-3.20;1000.00\n2024-01-06;-1.00;999.00\n',
      'column 2',
    ],
    ['the date elsewhere', savedHeaderless, 'Bakery;2024-01-05;-3,20\nCafe;2024-01-06;-1,00\n', 'column 1'],
    ['dates in another format than the saved one', savedDated, '2024-01-05;Bakery;-3,20\n', 'DD.MM.YYYY'],
    [
      'a column more, filled',
      savedHeaderless,
      '2024-01-05;Bakery;-3,20;Food\n2024-01-06;Cafe;-1,00;Food\n',
      'the file has 4 columns, the saved mapping 3',
    ],
  ])(
    'a saved mapping that does not fit asks for a mapping instead of misreading: %s',
    (_label, savedMapping, file, named) => {
      const result = readImport(file, { savedMapping });
      expect(result).toMatchObject({ ok: false, code: 'NEEDS_MAPPING', details: { needsMapping: true } });
      if (result.ok) return;
      expect(result.message).toContain('saved mapping');
      expect(result.message).toContain(named);
      expect((result.details as { sample: string[][] }).sample.length).toBeGreaterThan(0);
    },
  );
});

describe('the mapping picker offers the date formats that read the chosen date column', () => {
  it.each([
    [
      'day first, proven by a 13th',
      [
        ['13/01/2024', 'a'],
        ['02/03/2024', 'b'],
      ],
      0,
      false,
      ['DD/MM/YYYY'],
    ],
    [
      'ambiguous day and month',
      [
        ['01/02/2024', 'a'],
        ['03/04/2024', 'b'],
      ],
      0,
      false,
      ['MM/DD/YYYY', 'DD/MM/YYYY'],
    ],
    [
      'a header row is not a date',
      [
        ['When', 'What'],
        ['05.01.2024', 'a'],
      ],
      0,
      true,
      ['DD.MM.YYYY'],
    ],
    ['two-digit years', [['x', '1/5/24']], 1, false, ['MM/DD/YY', 'DD/MM/YY']],
    ['a column of text', [['Shop', '2024-01-01']], 0, false, []],
  ])('%s', (_label, sample, column, header, formats) => {
    expect(mappingDateFormats(sample, column, header)).toEqual(formats);
  });

  it.each([
    ['no date format: detected from the file', '', { header: false, date: 0, description: [1], amount: 2 }],
    [
      'a chosen date format travels with the mapping',
      'DD/MM/YYYY',
      { header: false, date: 0, description: [1], amount: 2, dateFormat: 'DD/MM/YYYY' },
    ],
  ])('%s', (_label, dateFormat, mapping) => {
    expect(mappingFromChoices(['date', 'description', 'amount'], false, dateFormat)).toEqual(mapping);
    // ... and the engine reads the file with it.
    if (dateFormat)
      expect(rowsOf(ok('01/02/2024,a,1.00\n03/04/2024,b,2.00\n', { mapping }))).toEqual([
        ['2024-02-01', 100, 'a'],
        ['2024-04-03', 200, 'b'],
      ]);
  });
});

describe('other formats: files written in each style, through the same pipeline', () => {
  const ofxSgml = (body: string) =>
    `OFXHEADER:100\r\nDATA:OFXSGML\r\nVERSION:102\r\nSECURITY:NONE\r\nENCODING:USASCII\r\nCHARSET:1252\r\n\r\n<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKTRANLIST>${body}</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>`;
  const camt = (entries: string) =>
    `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><Stmt>${entries}</Stmt></BkToCstmrStmt></Document>`;
  it.each([
    [
      'OFX 1.x SGML, unclosed tags, NAME then MEMO, time zones never shift the day',
      ofxSgml(
        '<STMTTRN><TRNTYPE>DEBIT<DTPOSTED>20240103000000.000[-5:EST]<TRNAMT>-12.34<FITID>F1<NAME>AMAZON &amp; CO<MEMO>Order 55\r\n</STMTTRN><STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20240104<TRNAMT>+100.00<FITID>F2<NAME>PAYMENT THANK YOU</STMTTRN>',
      ),
      'ofx',
      [
        ['2024-01-03', -1234, 'AMAZON & CO — Order 55', 'F1'],
        ['2024-01-04', 10000, 'PAYMENT THANK YOU', 'F2'],
      ],
    ],
    [
      'OFX 2.x XML, PAYEE block, decimal comma, MEMO alone',
      '<?xml version="1.0"?><?OFX OFXHEADER="200" VERSION="211"?><OFX><BANKTRANLIST><STMTTRN><DTPOSTED>20240103</DTPOSTED><TRNAMT>-5,50</TRNAMT><FITID>A1</FITID><PAYEE><NAME>Corner Shop</NAME></PAYEE><MEMO>Card 1234</MEMO></STMTTRN><STMTTRN><DTPOSTED>20240104</DTPOSTED><TRNAMT>-1.00</TRNAMT><FITID>A2</FITID><MEMO>Only memo</MEMO></STMTTRN></BANKTRANLIST></OFX>',
      'ofx',
      [
        ['2024-01-03', -550, 'Corner Shop — Card 1234', 'A1'],
        ['2024-01-04', -100, 'Only memo', 'A2'],
      ],
    ],
    [
      'QFX (Intuit) credit card, a memo equal to the name',
      'OFXHEADER:100\nDATA:OFXSGML\n\n<OFX><SIGNONMSGSRSV1><SONRS><INTU.BID>3000</SONRS></SIGNONMSGSRSV1><CREDITCARDMSGSRSV1><CCSTMTTRNRS><CCSTMTRS><BANKTRANLIST><STMTTRN><DTPOSTED>20240105<TRNAMT>-9.99<FITID>Q1<NAME>NETFLIX.COM<MEMO>netflix.com</STMTTRN></BANKTRANLIST></CCSTMTRS></CCSTMTTRNRS></CREDITCARDMSGSRSV1></OFX>',
      'ofx',
      [['2024-01-05', -999, 'NETFLIX.COM', 'Q1']],
    ],
    [
      "QIF bank, D T P M L ^ lines, 1/5'24 dates, a category and a transfer account",
      "!Type:Bank\nD1/5'24\nT-12.50\nPCorner Shop\nMBread\nLGroceries\n^\nD1/15'24\nT1,000.00\nPEmployer\nL[Savings]\n^\n",
      'qif',
      [
        ['2024-01-05', -1250, 'Corner Shop — Bread', null],
        ['2024-01-15', 100000, 'Employer', null],
      ],
    ],
    [
      'QIF investment section: a row without a payee is described by its action and security',
      "!Type:Invst\nD1/13'24\nNDiv\nYACME Corp\nT12.00\n^\n",
      'qif',
      [['2024-01-13', 1200, 'Div ACME Corp', null]],
    ],
    [
      'QIF credit card with 01/05/2024 dates settled by a 13th',
      '!Type:CCard\nD01/13/2024\nT-12.50\nPShop\n^\nD02/01/2024\nT-1.00\nPX\n^\n',
      'qif',
      [
        ['2024-01-13', -1250, 'Shop', null],
        ['2024-02-01', -100, 'X', null],
      ],
    ],
    [
      'CAMT.053 v08: counterparty from RltdPties by direction, never the holder; Ustrd lines joined',
      camt(
        '<Ntry><Amt Ccy="EUR">12.50</Amt><CdtDbtInd>DBIT</CdtDbtInd><BookgDt><Dt>2024-01-05</Dt></BookgDt><ValDt><Dt>2024-01-06</Dt></ValDt><AcctSvcrRef>R1</AcctSvcrRef><NtryDtls><TxDtls><RltdPties><Dbtr><Pty><Nm>Me Holder</Nm></Pty></Dbtr><Cdtr><Pty><Nm>Stadtwerke</Nm></Pty></Cdtr></RltdPties><RmtInf><Ustrd>Strom</Ustrd><Ustrd>Januar</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry><Ntry><Amt Ccy="EUR">2500.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><BookgDt><DtTm>2024-01-31T23:30:00-05:00</DtTm></BookgDt><AcctSvcrRef>R2</AcctSvcrRef><NtryDtls><TxDtls><RltdPties><Dbtr><Nm>Employer GmbH</Nm></Dbtr><Cdtr><Nm>Me Holder</Nm></Cdtr></RltdPties><RmtInf><Ustrd>Gehalt</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>',
      ),
      'camt053',
      [
        ['2024-01-05', -1250, 'Stadtwerke — Strom Januar', 'R1'],
        ['2024-01-31', 250000, 'Employer GmbH — Gehalt', 'R2'],
      ],
    ],
    [
      'CAMT.053 v02 with a namespace prefix, AddtlNtryInf for a fee, a reversal',
      '<?xml version="1.0"?><ns2:Document xmlns:ns2="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><ns2:BkToCstmrStmt><ns2:Stmt><ns2:Ntry><ns2:Amt Ccy="EUR">3.00</ns2:Amt><ns2:CdtDbtInd>DBIT</ns2:CdtDbtInd><ns2:BookgDt><ns2:Dt>2024-01-07</ns2:Dt></ns2:BookgDt><ns2:AddtlNtryInf>Kontoführung</ns2:AddtlNtryInf></ns2:Ntry><ns2:Ntry><ns2:Amt Ccy="EUR">4.00</ns2:Amt><ns2:CdtDbtInd>CRDT</ns2:CdtDbtInd><ns2:RvslInd>true</ns2:RvslInd><ns2:BookgDt><ns2:Dt>2024-01-08</ns2:Dt></ns2:BookgDt><ns2:NtryDtls><ns2:TxDtls><ns2:RltdPties><ns2:Dbtr><ns2:Nm>Me Holder</ns2:Nm></ns2:Dbtr><ns2:Cdtr><ns2:Nm>Shop</ns2:Nm></ns2:Cdtr></ns2:RltdPties></ns2:TxDtls></ns2:NtryDtls></ns2:Ntry></ns2:Stmt></ns2:BkToCstmrStmt></ns2:Document>',
      'camt053',
      [
        ['2024-01-07', -300, 'Kontoführung', null],
        ['2024-01-08', 400, 'Shop', null],
      ],
    ],
    [
      'CAMT.053 batch entry (one amount): described by its parties when nothing else says what it is',
      camt(
        '<Ntry><Amt Ccy="EUR">30.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><BookgDt><Dt>2024-01-05</Dt></BookgDt><NtryDtls><Btch><NbOfTxs>2</NbOfTxs></Btch><TxDtls><Amt Ccy="EUR">10.00</Amt><RltdPties><Cdtr><Nm>Alpha Ltd</Nm></Cdtr></RltdPties></TxDtls><TxDtls><Amt Ccy="EUR">20.00</Amt><RltdPties><Cdtr><Nm>Beta AG</Nm></Cdtr></RltdPties></TxDtls></NtryDtls></Ntry>',
      ),
      'camt053',
      [['2024-01-05', -3000, 'Alpha Ltd, Beta AG', null]],
    ],
  ])('%s', (_label, file, format, rows) => {
    const result = ok(file);
    expect(result.format).toBe(format);
    expect(result.rows.map((r) => [r.postDate, r.amount, r.description, r.fitid ?? null])).toEqual(rows);
  });

  it.each([
    ['QIF', '!Type:Bank\nD01/05/2024\nT-1.00\nPShop\n^\nD02/06/2024\nT-2.00\nPCafe\n^\n'],
    ['CSV', 'Date,Description,Amount\n01/05/2024,Shop,-1.00\n02/06/2024,Cafe,-2.00\n'],
  ])(
    '%s: day/month ambiguity is refused naming the candidates, settled by a date format or the last one used',
    (_format, file) => {
      expect(readImport(file)).toMatchObject({
        ok: false,
        code: 'AMBIGUOUS_DATE',
        details: { candidates: ['MM/DD/YYYY', 'DD/MM/YYYY'] },
      });
      expect(ok(file, { dateFormat: 'DD/MM/YYYY' }).rows.map((r) => r.postDate)).toEqual(['2024-05-01', '2024-06-02']);
      expect(ok(file, { preferredDateFormat: 'MM/DD/YYYY' }).rows.map((r) => r.postDate)).toEqual([
        '2024-01-05',
        '2024-02-06',
      ]);
    },
  );

  it.each([
    [
      'an OFX named .csv is still OFX',
      'OFXHEADER:100\n\n<OFX><BANKTRANLIST><STMTTRN><DTPOSTED>20240101<TRNAMT>-1<NAME>a</STMTTRN></BANKTRANLIST></OFX>',
      'ofx',
    ],
    [
      'a CSV whose first cell mentions OFX is still CSV',
      'Date,Description,Amount\n2024-01-01,OFX <OFX> fee,-1.00\n',
      'csv',
    ],
    [
      'QIF with a BOM and an account list first',
      '\uFEFF!Account\nNChecking\nTBank\n^\n!Type:Bank\nD1/13/2024\nT-1\nPa\n^\n',
      'qif',
    ],
  ])('the format comes from the content: %s', (_label, file, format) => {
    expect(ok(file).format).toBe(format);
  });
});

describe('type per row (auto)', () => {
  it.each([
    [500, 'checking', 'credit'],
    [-500, 'checking', 'debit'],
    [-500, 'savings', 'debit'],
    [-500, 'credit', 'charge'],
    [500, 'credit', 'credit'],
  ])('%d on %s is %s', (amount, accountType, type) => {
    expect(autoTransactionType(amount, accountType)).toBe(type);
  });
});

describe('currencies', () => {
  it('warns naming each currency and its rows', () => {
    const file =
      'Date,Description,Amount,Currency\n2024-01-01,a,-1.00,EUR\n2024-01-02,b,-2.00,USD\n2024-01-03,c,-3.00,EUR\n';
    expect(ok(file).warnings).toContain(
      'This file mixes 2 currencies: EUR (2 rows), USD (1 row). Amounts are imported as they are, without conversion.',
    );
    expect(ok('Date,Description,Amount,Currency\n2024-01-01,a,-1.00,EUR\n').warnings).toEqual([]);
  });
});

describe('joining purpose cells: each only when it adds something', () => {
  it.each([
    [['Rent', 'January'], 'Rent January'],
    [['with reference Salary', 'Salary'], 'with reference Salary'],
    [['salary', 'SALARY'], 'salary'],
    [['Inv 1', 'Inv 1 ACME'], 'Inv 1 ACME'],
    [['', 'Memo', ''], 'Memo'],
  ])('%j -> %j', (parts, joined) => {
    expect(joinParts(parts)).toBe(joined);
  });
});

describe('the description joining rule', () => {
  it.each([
    ['ACME', '', 'ACME'],
    ['', 'Memo', 'Memo'],
    ['ACME', 'ACME', 'ACME'],
    ['ACH Debit PUGET SOUND', 'ACH Debit PUGET SOUND ENER BILLPAY', 'ACH Debit PUGET SOUND ENER BILLPAY'],
    ['PAYMENT - THANK YOU', 'THANK YOU', 'PAYMENT - THANK YOU'],
    ['Shop', 'Invoice 1', 'Shop — Invoice 1'],
  ])('%j + %j', (a, b, joined) => {
    expect(joinDescription(a, b)).toBe(joined);
  });
});

describe('round trips: random transactions written as OFX, QIF and CAMT.053 read back the same', () => {
  const pad = (n: number) => String(n).padStart(2, '0');
  const money = (cents: number) =>
    `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${pad(Math.abs(cents) % 100)}`;
  const xml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const tx = fc.record({
    y: fc.integer({ min: 1990, max: 2060 }),
    m: fc.integer({ min: 1, max: 12 }),
    d: fc.integer({ min: 13, max: 28 }),
    cents: fc.integer({ min: -10_000_000, max: 10_000_000 }).filter((c) => c !== 0),
    name: fc.stringMatching(/^[A-Za-z][A-Za-z0-9 .&'-]{0,20}[A-Za-z0-9]$/),
  });
  const writers: [string, (rows: { y: number; m: number; d: number; cents: number; name: string }[]) => string][] = [
    [
      'OFX 1.x SGML',
      (rows) =>
        `OFXHEADER:100\nDATA:OFXSGML\n\n<OFX><BANKTRANLIST>${rows.map((r, i) => `<STMTTRN><DTPOSTED>${r.y}${pad(r.m)}${pad(r.d)}<TRNAMT>${money(r.cents)}<FITID>${i}<NAME>${xml(r.name)}</STMTTRN>`).join('\n')}</BANKTRANLIST></OFX>`,
    ],
    [
      'OFX 2.x XML',
      (rows) =>
        `<?xml version="1.0"?><?OFX OFXHEADER="200"?><OFX><BANKTRANLIST>${rows.map((r, i) => `<STMTTRN><DTPOSTED>${r.y}${pad(r.m)}${pad(r.d)}000000</DTPOSTED><TRNAMT>${money(r.cents)}</TRNAMT><FITID>${i}</FITID><MEMO>${xml(r.name)}</MEMO></STMTTRN>`).join('')}</BANKTRANLIST></OFX>`,
    ],
    [
      'QIF',
      (rows) =>
        `!Type:Bank\n${rows.map((r) => `D${pad(r.d)}/${pad(r.m)}/${r.y}\nT${money(r.cents)}\nP${r.name}\n^`).join('\n')}\n`,
    ],
    [
      'CAMT.053',
      (rows) =>
        `<?xml version="1.0"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt>${rows.map((r) => `<Ntry><Amt Ccy="EUR">${money(Math.abs(r.cents))}</Amt><CdtDbtInd>${r.cents < 0 ? 'DBIT' : 'CRDT'}</CdtDbtInd><BookgDt><Dt>${r.y}-${pad(r.m)}-${pad(r.d)}</Dt></BookgDt><NtryDtls><TxDtls><RmtInf><Ustrd>${xml(r.name)}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`).join('')}</Stmt></BkToCstmrStmt></Document>`,
    ],
  ];
  it.each(writers)('%s', (_name, write) => {
    fc.assert(
      fc.property(fc.array(tx, { minLength: 1, maxLength: 20 }), (rows) => {
        const result = ok(write(rows));
        expect(rowsOf(result)).toEqual(
          rows.map((r) => [`${r.y}-${pad(r.m)}-${pad(r.d)}`, r.cents, r.name.replace(/\s+/g, ' ').trim()]),
        );
      }),
      { numRuns: 60 },
    );
  });
});
