import { describe, expect, it } from 'vitest';
import {
  markDuplicates,
  markDuplicatesSteps,
  normalizeDescription,
  readCsv,
  readCsvAsync,
  runSteps,
  runStepsAsync,
  slicedPause,
  tokenize,
} from '../../src/shared/csv';
import { decodeInput } from '../../src/shared/csv/read-csv';
import { RECORDS_PER_STEP } from '../../src/shared/csv/tokenize';

function bigCsv(rows: number, quoted: boolean): string {
  const lines = ['Date,Description,Amount'];
  for (let i = 0; i < rows; i += 1) {
    const description = quoted ? `"Shop, branch ${i % 37}"` : `Shop ${i % 37}`;
    lines.push(
      `2024-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')},${description},-${(i % 500) + 1}.${String(i % 100).padStart(2, '0')}`,
    );
  }
  return lines.join('\n');
}

describe('stepwise reading', () => {
  it.each([
    ['unquoted', false],
    ['quoted', true],
  ])('readCsvAsync pauses while reading a large %s file and returns what readCsv returns', async (_name, quoted) => {
    const text = bigCsv(5 * RECORDS_PER_STEP + 17, quoted);
    let pauses = 0;
    const stepwise = await readCsvAsync(new TextEncoder().encode(text), {}, () => {
      pauses += 1;
      return Promise.resolve();
    });
    expect(stepwise).toEqual(readCsv(new TextEncoder().encode(text)));
    expect(stepwise.ok && stepwise.rows.length).toBe(5 * RECORDS_PER_STEP + 17);
    // Tokenizing, finding the rows and converting them each pause about every RECORDS_PER_STEP records.
    expect(pauses).toBeGreaterThanOrEqual(12);
  });

  it('decodes a file in a step of its own: the reading that follows starts after a pause', () => {
    // Decoding 9 MB is one string of 9 MB (~40 ms of CPU); in one step with detecting the delimiter and the first
    // records, a server held its event loop for over 100 ms.
    const text = Array.from({ length: 150 }, (_, i) => `2024-07-01,"m${i}\n${'y'.repeat(60_000)}",-1`).join('\n');
    for (const bytes of [
      new TextEncoder().encode(text),
      new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('a,b\n')]),
    ]) {
      const steps = decodeInput(bytes);
      expect(steps.next().done).toBe(false);
      expect(steps.next()).toMatchObject({ done: true, value: { ok: true } });
    }
  });

  it('returns failures stepwise too', async () => {
    const text = `${bigCsv(3 * RECORDS_PER_STEP, false)}\n2024-01-01,Bad,12abc`;
    const result = await readCsvAsync(text, {}, () => Promise.resolve());
    expect(result).toMatchObject({ ok: false, code: 'BAD_AMOUNT' });
    expect(result).toEqual(readCsv(text));
  });

  it('marks duplicates stepwise exactly as at once', async () => {
    const rows = Array.from({ length: 2 * RECORDS_PER_STEP + 5 }, (_, i) => ({
      postDate: '2024-01-01',
      amount: -(i % 7),
      description: `Shop ${i % 3}`,
    }));
    const existing = new Map([
      ['2024-01-01|-1|shop 1', 3],
      ['2024-01-01|0|shop 0', 1],
    ]);
    let pauses = 0;
    const stepwise = await runStepsAsync(markDuplicatesSteps(rows, existing), () => {
      pauses += 1;
      return Promise.resolve();
    });
    expect(stepwise).toEqual(markDuplicates(rows, existing));
    expect(stepwise.filter(Boolean)).toHaveLength(4);
    expect(pauses).toBe(2);
    // The caller's counts are left as they were.
    expect(existing.get('2024-01-01|-1|shop 1')).toBe(3);
  });

  it('tokenize is the stepwise tokenizer run to the end', () => {
    const text = bigCsv(RECORDS_PER_STEP + 1, true);
    expect(tokenize(text, ',')).toHaveLength(RECORDS_PER_STEP + 2);
    // A step list that never pauses: runSteps answers its value.
    // eslint-disable-next-line require-yield -- a generator without a pause is the case under test
    const neverPauses = function* () {
      return 42;
    };
    expect(runSteps(neverPauses())).toBe(42);
  });
});

describe('normalizeDescription', () => {
  const slow = (text: string) => text.normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase();
  it.each([
    'Coffee Corner #12',
    'COFFEE  CORNER',
    ' leading',
    'trailing ',
    'tab\there',
    'line\nbreak',
    'Cafe\u0301 Müller',
    'Café Müller',
    'non\u00a0breaking',
    '',
    'A',
  ])('%j normalises as NFC, single spaces, trimmed, lower case', (text) => {
    expect(normalizeDescription(text)).toBe(slow(text));
  });
});

/** slicedPause over a fake clock, counting the turns it takes. */
function countedSlices(sliceMs: number, now: () => number) {
  let turns = 0;
  const pause = slicedPause(
    () => {
      turns += 1;
      return Promise.resolve();
    },
    sliceMs,
    now,
  );
  return { pause, turns: () => turns };
}

describe('slicedPause', () => {
  it('gives the event loop a turn only once a slice of work has run since the last turn', async () => {
    let clock = 0;
    const { pause, turns } = countedSlices(10, () => clock);
    // Steps of 1 ms: a turn after every 10 ms of them, not after every step.
    for (let step = 0; step < 100; step += 1) {
      clock += 1;
      await pause();
    }
    expect(turns()).toBe(10);
    // One long step: the next pause takes a turn at once.
    clock += 500;
    await pause();
    expect(turns()).toBe(11);
  });

  it('pauses runStepsAsync by slices and returns what runSteps returns', async () => {
    function* count(): Generator<void, number, void> {
      let n = 0;
      for (let i = 0; i < 1000; i += 1) {
        n += i;
        yield;
      }
      return n;
    }
    let clock = 0;
    const { pause, turns } = countedSlices(50, () => (clock += 1));
    expect(await runStepsAsync(count(), pause)).toBe(runSteps(count()));
    expect(turns()).toBeGreaterThan(5);
    expect(turns()).toBeLessThan(100);
  });
});
