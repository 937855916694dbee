import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  dedupeKey,
  DuplicateMarker,
  markDuplicates,
  RowCounts,
  runSteps,
  tokenize,
  type CsvReadHead,
  type CsvRow,
} from '../../src/shared/csv';
import { collectRead, decodeInput, openCsvTextSteps } from '../../src/shared/csv/read-csv';
import {
  detectDelimiter,
  IMPORT_LIMITS,
  recordChunks,
  RECORDS_PER_STEP,
  type CsvRecord,
} from '../../src/shared/csv/tokenize';
import { openImportSteps, readImport } from '../../src/shared/import/read-file';
import { BANK_CSV_DIR } from '../helpers/fixture-manifests';

/** Every CSV the repository and the shared corpus hold, as text. */
function csvFixtures(): [string, string][] {
  const dirs = [path.resolve('tests/fixtures/csv'), BANK_CSV_DIR].filter((dir) => existsSync(dir));
  const out: [string, string][] = [];
  for (const dir of dirs) {
    for (const file of readdirSync(dir).filter((f) => f.toLowerCase().endsWith('.csv'))) {
      const decoded = runSteps(decodeInput(new Uint8Array(readFileSync(path.join(dir, file)))));
      if (decoded.ok) out.push([file, decoded.text]);
    }
  }
  return out;
}

const fixtures = csvFixtures();

function joined(text: string, delimiter: string, perChunk: number): { records: CsvRecord[]; problem: unknown } {
  const records: CsvRecord[] = [];
  const chunks = recordChunks(text, delimiter, IMPORT_LIMITS, perChunk);
  for (;;) {
    const next = chunks.next();
    if (next.done) return { records, problem: next.value };
    expect(next.value.length).toBeLessThanOrEqual(perChunk);
    records.push(...next.value);
  }
}

/** The whole read, its records tokenised `perChunk` at a time (so every chunk boundary is crossed). */
function readInChunks(text: string, perChunk: number) {
  return runSteps(collectRead(runSteps(openCsvTextSteps(text, 'text', {}, perChunk))));
}

/** A statement shaped to cross every boundary: a preamble, continuation lines, balance lines, rows without amounts, some CR marks. */
function awkwardCsv(rows: number): string {
  const lines = ['Account:,12345678', 'Period:,2024', '', 'Date,Description,Amount,Mark,Reference'];
  lines.push('2024-01-01,Opening balance,100.00,,');
  for (let i = 0; i < rows; i += 1) {
    const day = String((i % 28) + 1).padStart(2, '0');
    lines.push(
      `2024-02-${day},"Shop ${i % 13}${i % 50 === 0 ? '\nsecond line' : ''}",${(i % 97) + 1}.${String(i % 100).padStart(2, '0')},${i % 9 === 0 ? 'CR' : ''},R${i}`,
    );
    if (i % 211 === 0) lines.push(',continued text,,,');
    if (i % 307 === 0) lines.push(`2024-02-${day},No amount here,,,`);
  }
  lines.push('2024-03-01,Closing balance,200.00,,');
  return `${lines.join('\n')}\n`;
}

describe('chunked tokeniser', () => {
  it.each(fixtures)('%s: the chunks joined are the whole-file records, for any chunk size', (_file, text) => {
    const delimiter = detectDelimiter(text);
    const whole = tokenize(text, delimiter);
    for (const perChunk of [1, 3, RECORDS_PER_STEP]) {
      const { records, problem } = joined(text, delimiter, perChunk);
      expect(problem).toBeNull();
      expect(records).toEqual(whole);
    }
  });

  it('matches the whole-file tokeniser on generated text (quotes, line breaks in cells, CR line endings)', () => {
    const cellArb = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('"a,b"', '"x\ny"', '"q""q"', ''));
    const lineArb = fc.array(cellArb, { minLength: 1, maxLength: 4 }).map((cells) => cells.join(','));
    fc.assert(
      fc.property(
        fc.array(lineArb, { maxLength: 30 }),
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.integer({ min: 1, max: 5 }),
        (lines, eol, perChunk) => {
          const text = lines.join(eol);
          expect(joined(text, ',', perChunk).records).toEqual(tokenize(text, ','));
        },
      ),
    );
  });

  it('stops at the line of a shape problem, past any number of chunks', () => {
    const text = `a,b\n${'1,2\n'.repeat(50)}${'x,'.repeat(300)}\n3,4\n`;
    expect(joined(text, ',', 7).problem).toEqual({ problem: 'too-many-columns', line: 52, columns: 201 });
  });
});

describe('streamed CSV read', () => {
  it.each(fixtures)('%s: the same answer whatever the chunk size', (_file, text) => {
    const reference = readInChunks(text, RECORDS_PER_STEP);
    expect(readInChunks(text, 1)).toEqual(reference);
    expect(readInChunks(text, 5)).toEqual(reference);
  });

  it('the same answer whatever the chunk size on a long awkward statement (header search, continuations, balances, marks)', () => {
    const text = awkwardCsv(3000);
    const reference = readInChunks(text, RECORDS_PER_STEP);
    if (!reference.ok) throw new Error(reference.message);
    expect(reference.rows.length).toBeGreaterThan(2900);
    expect(reference.skipped.map((s) => s.reason)).toEqual(
      expect.arrayContaining([
        'before the header',
        'continues the description of the row above',
        'a balance line, not a transaction',
        'no amount',
      ]),
    );
    expect(reference.notes.join(' ')).toMatch(/unmarked rows were read as money out/);
    for (const perChunk of [1, 7, 450]) expect(readInChunks(text, perChunk)).toEqual(reference);
  });

  it('answers its first rows before it has built them all, and says their date range up front', () => {
    const text = awkwardCsv(3 * RECORDS_PER_STEP);
    const head = runSteps(openImportSteps(text, {}));
    if (!head.ok) throw new Error(head.message);
    const stream: CsvReadHead = head;
    // Every dated line with an amount is in it (the balance lines too, which are dropped later).
    expect(stream.dateRange).toEqual(['2024-01-01', '2024-03-01']);
    expect(stream.hasFitids).toBe(false);
    expect(stream.mayLackCategory).toBe(true);
    const chunks: CsvRow[][] = [];
    for (let next = stream.rows.next(); !next.done; next = stream.rows.next()) chunks.push(next.value);
    const total = chunks.reduce((n, c) => n + c.length, 0);
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThanOrEqual(RECORDS_PER_STEP);
    expect(chunks.filter((c) => c.length > 0).length).toBeGreaterThan(2);
    const whole = readImport(text);
    expect(whole.ok && whole.rows.length).toBe(total);
    const [min, max] = stream.dateRange;
    expect(chunks.flat().every((row) => row.postDate >= min && row.postDate <= max)).toBe(true);
  });

  it('a file that fails after its first records answers the failure of the whole-file read', () => {
    const tooWide = `Date,Description,Amount\n${'2024-01-01,x,1.00\n'.repeat(1000)}${'y,'.repeat(300)}\n`;
    expect(readInChunks(tooWide, 3)).toMatchObject({ ok: false, code: 'TOO_MANY_COLUMNS' });
    const noHeaderThenTooWide = `${'just text\n'.repeat(500)}${'y,'.repeat(300)}\n`;
    expect(readInChunks(noHeaderThenTooWide, 3)).toMatchObject({ ok: false, code: 'TOO_MANY_COLUMNS' });
    const badAmountLate = `Date,Description,Amount\n${'2024-01-01,x,1.00\n'.repeat(1000)}2024-01-02,y,abc\n`;
    expect(readInChunks(badAmountLate, 3)).toMatchObject({ ok: false, code: 'BAD_AMOUNT', details: { line: 1002 } });
  });
});

describe('DuplicateMarker', () => {
  /** A file row that counts how often its text is read (a duplicate key is built from it). */
  const countingRow = (postDate: string, amount: number, description: string, fitid: string | null = null) => {
    const row = { reads: 0, postDate, amount, fitid };
    Object.defineProperty(row, 'description', {
      get: () => {
        row.reads += 1;
        return description;
      },
    });
    return row as typeof row & { description: string };
  };

  it('builds no key once nothing stored is left to match (nothing stored, or every stored row matched)', () => {
    const key = '2024-01-01|-100|shop';
    const marker = new DuplicateMarker(
      { all: new Map([[key, 1]]), withoutFitid: new Map(), fitids: new Set(['A']) },
      { owned: true },
    );
    const first = countingRow('2024-01-01', -100, 'Shop');
    expect(marker.isDuplicate(first)).toBe(true);
    const later = [
      countingRow('2024-01-01', -100, 'Shop'),
      countingRow('2024-01-02', 5, 'Cafe'),
      countingRow('2024-01-02', 5, 'Cafe', 'B'),
    ];
    expect(later.map((row) => marker.isDuplicate(row))).toEqual([false, false, false]);
    expect(marker.isDuplicate(countingRow('2024-01-03', 7, 'Bank id stored', 'A'))).toBe(true);
    expect(later.map((row) => row.reads)).toEqual([0, 0, 0]);
    const empty = new DuplicateMarker(new Map());
    const fresh = countingRow('2024-01-01', -100, 'Shop');
    expect(empty.isDuplicate(fresh)).toBe(false);
    expect(fresh.reads).toBe(0);
  });

  const rowArb = fc.record({
    postDate: fc.constantFrom('2024-01-01', '2024-01-02'),
    amount: fc.constantFrom(-100, 250),
    description: fc.constantFrom('Shop', 'shop ', 'Cafe'),
    fitid: fc.option(fc.constantFrom('A', 'B', 'C'), { nil: null }),
  });

  it('owning the stored counts, marks row by row as markDuplicates marks the whole file, and uses the counts up in place', () => {
    fc.assert(
      fc.property(fc.array(rowArb, { maxLength: 25 }), fc.array(rowArb, { maxLength: 25 }), (stored, file) => {
        const counts = () => {
          const all = new Map<string, number>();
          const withoutFitid = new Map<string, number>();
          for (const row of stored) {
            const key = `${row.postDate}|${row.amount}|${row.description.trim().toLowerCase()}`;
            all.set(key, (all.get(key) ?? 0) + 1);
            if (!row.fitid) withoutFitid.set(key, (withoutFitid.get(key) ?? 0) + 1);
          }
          return { all, withoutFitid, fitids: new Set(stored.flatMap((r) => (r.fitid ? [r.fitid] : []))) };
        };
        const expected = markDuplicates(file, counts());
        const owned = counts();
        const marker = new DuplicateMarker(owned, { owned: true });
        expect(file.map((row) => marker.isDuplicate(row))).toEqual(expected);
        const used = file.filter((row, i) => expected[i] && !(row.fitid && owned.fitids.has(row.fitid))).length;
        const left = [...owned.all.values(), ...owned.withoutFitid.values()].reduce((a, b) => a + b, 0);
        const before = [...counts().all.values(), ...counts().withoutFitid.values()].reduce((a, b) => a + b, 0);
        expect(left).toBe(before - used);
      }),
    );
  });
  it('marks the same rows with RowCounts as with a map of dedupe keys (odd dates, large and fractional amounts, one date and amount with several texts)', () => {
    const oddRow = fc.record({
      postDate: fc.constantFrom('2024-01-01', '2024-01-02', '1999-12-31', '2024-1-01', '2024-01-0x', 'x', '9999-99-99'),
      amount: fc.constantFrom(-100, 0, 250, 33_554_431, -33_554_431, 33_554_432, -33_554_432, 2 ** 40, 0.5),
      description: fc.constantFrom('Shop', 'shop ', 'SHOP', 'Cafe', 'Café', 'Cafe\u0301', '  two  spaces '),
      fitid: fc.option(fc.constantFrom('A', 'B', 'C'), { nil: null }),
    });
    fc.assert(
      fc.property(
        fc.array(oddRow, { maxLength: 30 }),
        fc.array(oddRow, { maxLength: 30 }),
        fc.boolean(),
        (stored, file, owned) => {
          const keys = { all: new Map<string, number>(), withoutFitid: new Map<string, number>() };
          const counts = { all: new RowCounts(), withoutFitid: new RowCounts() };
          for (const row of stored) {
            const key = dedupeKey(row.postDate, row.amount, row.description);
            keys.all.set(key, (keys.all.get(key) ?? 0) + 1);
            counts.all.add(row.postDate, row.amount, row.description);
            if (!row.fitid) {
              keys.withoutFitid.set(key, (keys.withoutFitid.get(key) ?? 0) + 1);
              counts.withoutFitid.add(row.postDate, row.amount, row.description);
            }
          }
          const fitids = new Set(stored.flatMap((r) => (r.fitid ? [r.fitid] : [])));
          const byKeys = new DuplicateMarker({ ...keys, fitids }, { owned });
          const byCounts = new DuplicateMarker({ ...counts, fitids }, { owned });
          expect(file.map((row) => byCounts.isDuplicate(row))).toEqual(file.map((row) => byKeys.isDuplicate(row)));
          if (!owned) expect(counts.all.size).toBe(new Set(stored.map((r) => `${r.postDate}|${r.amount}`)).size);
        },
      ),
    );
  });
});
