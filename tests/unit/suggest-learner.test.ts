import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { householdLedger } from '../../bench/suggest-data';
import {
  addRow,
  learn,
  merchantKey,
  normalizeMerchant,
  suggestAll,
  type LearnRow,
  type SuggestionModel,
} from '../../src/shared/suggest';
import * as before from './reference/learner-f8591be';
import * as normalizeBefore from './reference/normalize-f8591be';

/**
 * The merchant normaliser and the learner were rewritten for speed (a first suggestion learns a
 * whole history at once). These tests hold them to the versions they replaced, kept as they were at
 * f8591be in tests/unit/reference/: the same merchant key for every text, the same model for
 * every history, the same answers.
 */

/** Messy bank text: payment words, region codes, months, masks, references, digits, joiners, punctuation. */
const WORDS = [
  'pos',
  'card',
  'purchase',
  'apple',
  'pay',
  'on',
  'at',
  'green',
  'basket',
  'ref',
  'id',
  'mar',
  'il',
  'ny',
  'new',
  'york',
  'city',
  'xxxx',
  'x',
  'inc',
  'com',
  'la',
  'st',
  'transaction',
  'contactless',
  'greenbasket',
  '#0231',
  '03/14',
  'xx12',
  "mcdonald's",
  'b&q',
  'café',
  '',
];
const bankWord = fc.oneof(fc.constantFrom(...WORDS), fc.stringMatching(/^[A-Za-z0-9'`&]{1,13}$/));
const bankText = fc
  .tuple(
    fc.array(bankWord, { maxLength: 9 }),
    fc.array(fc.constantFrom(' ', '  ', ',', ' - ', '*', '.', '/', "'"), { minLength: 9, maxLength: 9 }),
    fc.boolean(),
  )
  .map(([words, gaps, upper]) => {
    const text = words.map((word, i) => `${word}${gaps[i] ?? ' '}`).join('');
    return upper ? text.toUpperCase() : text;
  });
const anyText = fc.oneof(
  bankText,
  fc.stringMatching(/^[A-Za-z0-9 #*'`&.,/\-_:;()+éÜß’]{0,40}$/),
  fc.string({ maxLength: 30 }),
);

function expectSameModel(actual: SuggestionModel, expected: before.SuggestionModel): void {
  expect(actual.rows).toBe(expected.rows);
  // Same keys in the same order, each with the same figures (floating-point sums added in the same order).
  expect([...actual.keys.keys()]).toEqual([...expected.keys.keys()]);
  expect(actual.keys).toEqual(expected.keys);
  expect([...actual.squashed]).toEqual([...expected.squashed]);
  expect([...actual.tokenKeys]).toEqual([...expected.tokenKeys]);
}

/** The suggest bench's 100,000-row history and its 5,000 rows to suggest. */
const history = householdLedger(42, '2015-01-01', 120, 4, 600).slice(0, 100_000);
const fresh = householdLedger(43, '2025-01-01', 12, 4, 600).slice(0, 5000);

const fixtures = '/work/shared/fixtures/bank-csv';
/** Every line and cell of the shared bank CSV fixtures, when they are on this machine. */
function fixtureTexts(): string[] {
  return readdirSync(fixtures)
    .filter((file) => file.endsWith('.csv'))
    .flatMap((file) => readFileSync(path.join(fixtures, file), 'utf8').split(/\r?\n/))
    .flatMap((line) => [line, ...line.split(/[,;\t|]/)]);
}

/** The texts whose merchant key differs from the one the normaliser gave before (one expect, not one per text). */
function differences(texts: readonly string[]): { text: string; key: string; before: string }[] {
  const found: { text: string; key: string; before: string }[] = [];
  for (const text of texts) {
    const now = merchantKey(text);
    const then = normalizeBefore.merchantKey(text);
    if (now.key !== then.key || now.tokens.join('\u0000') !== then.tokens.join('\u0000'))
      found.push({ text, key: now.key, before: then.key });
  }
  return found;
}

describe('the merchant normaliser gives the key it gave before', { timeout: 60_000 }, () => {
  it('for any text', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(merchantKey(text)).toEqual(normalizeBefore.merchantKey(text));
        expect(normalizeMerchant(text)).toEqual(normalizeBefore.normalizeMerchant(text));
      }),
      { numRuns: 20_000 },
    );
  });

  it('for every description of the suggest bench', () => {
    expect(differences([...history, ...fresh].map((row) => row.description))).toEqual([]);
  });

  it.skipIf(!existsSync(fixtures))('for every line and cell of the shared bank CSV fixtures', () => {
    const texts = fixtureTexts();
    expect(texts.length).toBeGreaterThan(1000);
    expect(differences(texts)).toEqual([]);
  });
});

describe('learning builds the model the learner built before', { timeout: 60_000 }, () => {
  it('for the suggest bench’s history, and answers its 5,000 rows identically', () => {
    const model = learn(history);
    const reference = before.learn(history);
    expectSameModel(model, reference);
    expect(suggestAll(model, fresh)).toEqual(before.suggestAll(reference, fresh));
  });

  it('for any rows, learned at once or row by row', () => {
    const row = fc.record({
      description: anyText,
      amount: fc.integer({ min: -50_000, max: 50_000 }),
      category: fc.constantFrom('Groceries', 'Fuel', 'Treats'),
    });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 40 }), (rows: LearnRow[]) => {
        const reference = before.learn(rows);
        expectSameModel(learn(rows), reference);
        const byRow = learn([]);
        for (const r of rows) addRow(byRow, r);
        expectSameModel(byRow, reference);
      }),
      { numRuns: 1000 },
    );
  });
});
