import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { guardFormula, unguardFormula } from '../../src/shared/csv/formula';
import {
  csvField,
  csvRecord,
  splitRole,
  transactionCsvCells,
  transactionCsvHeader,
} from '../../src/shared/export/transactions-csv';

describe('guardFormula', () => {
  it.each([
    ['=SUM(A1)', "'=SUM(A1)"],
    ['+1 555', "'+1 555"],
    ['-5%', "'-5%"],
    ['@home', "'@home"],
    ['\tindent', "'\tindent"],
    ['\rx', "'\rx"],
    ["'=x", "''=x"],
    ["'plain", "'plain"],
    ['plain', 'plain'],
    ['a=b', 'a=b'],
    ['', ''],
  ])('%j -> %j', (cell, guarded) => {
    expect(guardFormula(cell)).toBe(guarded);
    expect(unguardFormula(guarded)).toBe(cell);
  });

  it('unguard undoes guard for every text, and a guarded cell never starts with a formula character (property)', () => {
    const text = fc.string({ unit: fc.constantFrom('=', '+', '-', '@', '\t', '\r', "'", 'a', '1', ' '), maxLength: 8 });
    fc.assert(
      fc.property(text, (cell) => {
        expect(unguardFormula(guardFormula(cell))).toBe(cell);
        expect(guardFormula(cell)).not.toMatch(/^[=+\-@\t\r]/);
      }),
    );
  });
});

describe('RFC 4180 records', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['cr\r', '"cr\r"'],
    ['', ''],
  ])('%j -> %j', (value, field) => {
    expect(csvField(value)).toBe(field);
  });

  it('reads back with a conforming parser to the same cells (property)', () => {
    const cell = fc.string({ unit: fc.constantFrom('a', ',', '"', '\n', '\r', ' ', 'é', '='), maxLength: 10 });
    fc.assert(
      fc.property(fc.array(cell, { minLength: 2, maxLength: 6 }), (cells) => {
        const [parsed] = parse(csvRecord(cells), { relax_column_count: true });
        expect(parsed).toEqual(cells);
      }),
    );
  });

  it('starts with the byte order mark and the named columns', () => {
    expect(transactionCsvHeader()).toBe(
      '\uFEFFDate,Description,Amount,Category,Type,Account,Split,Split of,Batch,ID\r\n',
    );
  });

  it('writes a transaction with a dotted decimal amount, empty cells for nothing, and guards every text cell', () => {
    const base = {
      id: 7,
      isSplit: false,
      postDate: '2024-03-05',
      description: 'Coffee',
      amount: -450,
      category: null,
      type: 'debit' as const,
      account: null,
      parentTransactionId: null,
      batchId: null,
    };
    expect(transactionCsvCells(base)).toEqual(['2024-03-05', 'Coffee', '-4.50', '', 'debit', '', '', '', '', '7']);
    expect(
      transactionCsvCells({
        ...base,
        amount: 5,
        description: '-refund',
        category: '=cmd',
        account: '@acct',
        parentTransactionId: 42,
        batchId: 'b-1',
      }),
    ).toEqual(['2024-03-05', "'-refund", '0.05', "'=cmd", 'debit', "'@acct", 'part', '42', 'b-1', '7']);
    expect(transactionCsvCells({ ...base, amount: -123456789 })[2]).toBe('-1234567.89');
  });

  it('marks a split original `parent` (0/1 from SQLite too) and its parts `part`, other rows empty', () => {
    const row = { isSplit: false, parentTransactionId: null };
    expect(splitRole(row)).toBe('');
    expect(splitRole({ ...row, isSplit: true })).toBe('parent');
    expect(splitRole({ ...row, isSplit: 1 })).toBe('parent');
    expect(splitRole({ ...row, isSplit: 0, parentTransactionId: 3 })).toBe('part');
  });
});
