import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addRow,
  CONFIDENT,
  foldMerchantText,
  learn,
  merchantWords,
  normalizeMerchant,
  suggest,
  suggestAll,
  type LearnRow,
} from '../../src/shared/suggest';

describe('normalizeMerchant', () => {
  it.each([
    ['case and spacing', 'Green   Basket', 'green basket'],
    ['store number', 'GREEN BASKET #0231', 'green basket'],
    ['store number glued to a word is dropped as a token', 'GREEN BASKET 0231', 'green basket'],
    ['card number mask', 'GREEN BASKET XXXX1234', 'green basket'],
    ['asterisk card mask', 'GREEN BASKET ****1234', 'green basket'],
    ['date', 'GREEN BASKET 03/14', 'green basket'],
    ['date with a month name', 'GREEN BASKET 14 MAR', 'green basket'],
    ['ISO date', 'GREEN BASKET 2024-03-14', 'green basket'],
    ['reference code with digits', 'GREEN BASKET REF8F2K1Q', 'green basket'],
    ['reference code after a marker', 'GREEN BASKET REF ABCDEF', 'green basket'],
    ['city and state tail', 'GREEN BASKET SPRINGFIELD IL', 'green basket'],
    ['city and state after a comma', 'Green Basket 0977 Springfield, IL', 'green basket'],
    ['two-word city', 'GREEN BASKET NEW YORK NY', 'green basket'],
    ['two-word city ending in City', 'GREEN BASKET CAPITAL CITY IL', 'green basket'],
    ['country tail', 'NETFLIX COM AMSTERDAM NL', 'netflix'],
    ['short name with a country code', 'AMAZON DE', 'amazon'],
    ['accents', 'CAFÉ DE FLORE', 'cafe de flore'],
    ['accents in capitals', 'CAFE DE FLORE', 'cafe de flore'],
    ['German sharp s', 'Bäckerei Straße', 'backerei strasse'],
    ['apostrophe', "McDonald's 4410", 'mcdonalds'],
    ['ampersand', 'B&Q 1123', 'bq'],
    ['POS prefix', 'POS 4412 GREEN BASKET', 'green basket'],
    ['card purchase prefix', 'DEBIT CARD PURCHASE - GREEN BASKET', 'green basket'],
    ['Square prefix', 'SQ *BLUE BOTTLE COFFEE', 'blue bottle coffee'],
    ['Toast prefix', 'TST* JOES DINER 12', 'joes diner'],
    ['PayPal prefix', 'PAYPAL *NETFLIX', 'netflix'],
    ['direct debit prefix', 'DIRECT DEBIT BRITISH GAS REF 88213', 'british gas'],
    ['weak prefix kept when it is the name', 'APPLE STORE R123', 'apple store'],
    ['company suffix and web address', 'WWW.SPOTIFY.COM', 'spotify'],
    ['company suffix', 'ACME WIDGETS INC', 'acme widgets'],
    ['all the mess at once', 'POS 4412 GREEN BASKET #0231 SPRINGFIELD IL 03/14', 'green basket'],
    ['only noise keeps its words', 'POS 1234', 'pos'],
    ['only digits keeps the first words', '12345 678', '12345 678'],
  ])('%s: %j -> %j', (_label, input, key) => {
    expect(normalizeMerchant(input).key).toBe(key);
  });

  it('names the merchant in capitals for a reason', () => {
    expect(normalizeMerchant('pos green basket #12').display).toBe('GREEN BASKET');
  });

  it('is idempotent and never empty for text with a letter or digit', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (text) => {
        const once = normalizeMerchant(text);
        if (/[\p{L}\p{N}]/u.test(text)) expect(once.key).not.toBe('');
        expect(normalizeMerchant(once.key).key).toBe(once.key === '' ? '' : normalizeMerchant(once.key).key);
        expect(once.key).toBe(once.key.toLowerCase());
      }),
    );
  });

  it('splits text into the same words in one pass as folding and splitting on spaces does', () => {
    const bankText = fc.stringMatching(/^[A-Za-z0-9 #*'`&.,/\-_:;()+éÜß’]{0,40}$/);
    fc.assert(
      fc.property(fc.oneof(bankText, fc.string({ maxLength: 40 })), (text) => {
        expect(merchantWords(text)).toEqual(foldMerchantText(text).split(' ').filter(Boolean));
      }),
      { numRuns: 2000 },
    );
  });

  it('ignores store numbers and dates: any digits appended give the same key', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 99999 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 28 }),
        (store, month, day) => {
          expect(normalizeMerchant(`GREEN BASKET #${store} ${month}/${day}`).key).toBe('green basket');
        },
      ),
    );
  });
});

function rows(description: string, category: string, amounts: number[]): LearnRow[] {
  return amounts.map((amount) => ({ description, amount, category }));
}

describe('suggest', () => {
  const history: LearnRow[] = [
    ...rows(
      'GREEN BASKET #0231 SPRINGFIELD IL',
      'Groceries',
      Array.from({ length: 14 }, (_, i) => -2000 - i * 150),
    ),
    ...rows('SHELL OIL 5521', 'Fuel', [-4500, -5200, -3900]),
    ...rows('AMAZON MKTPLACE', 'Household', [-2500, -3100, -2800, -2600, -2900]),
    ...rows('AMAZON MKTPLACE', 'Electronics', [-45000, -52000, -61000]),
    ...rows('ACME PAYROLL', 'Salary', [350000, 350000, 350000]),
    ...rows('LONE CAFE', 'Coffee', [-450]),
  ];
  const model = learn(history);

  it.each([
    [
      'exact merchant, other store and date',
      'POS GREEN BASKET #0977 SPRINGFIELD IL 04/02',
      -2300,
      'Groceries',
      "14 earlier 'GREEN BASKET' rows were Groceries",
    ],
    [
      'few rows: a suggestion, not a confident one',
      'SHELL OIL 8812',
      -4100,
      'Fuel',
      "3 earlier 'SHELL OIL' rows were Fuel",
    ],
    [
      'amount size decides between a merchant’s categories (small)',
      'AMAZON MKTPLACE',
      -2700,
      'Household',
      "5 of 8 earlier 'AMAZON MKTPLACE' rows were Household, amounts like this one",
    ],
    [
      'amount size decides between a merchant’s categories (large)',
      'AMAZON MKTPLACE',
      -55000,
      'Electronics',
      "3 of 8 earlier 'AMAZON MKTPLACE' rows were Electronics, amounts like this one",
    ],
    ['one earlier row', 'LONE CAFE', -500, 'Coffee', "1 earlier 'LONE CAFE' row was Coffee"],
    ['spaces squashed', 'GREENBASKET 12', -2000, 'Groceries', "14 earlier 'GREEN BASKET' rows were Groceries"],
  ])('%s', (_label, description, amount, category, reason) => {
    const result = suggest(model, { description, amount });
    expect(result.category).toBe(category);
    expect(result.reason).toBe(reason);
  });

  it('is confident only with many consistent rows', () => {
    expect(suggest(model, { description: 'GREEN BASKET', amount: -2500 }).confidence).toBeGreaterThanOrEqual(CONFIDENT);
    expect(suggest(model, { description: 'SHELL OIL', amount: -4500 }).confidence).toBeLessThan(CONFIDENT);
    expect(suggest(model, { description: 'LONE CAFE', amount: -450 }).confidence).toBeLessThanOrEqual(0.5);
    expect(suggest(model, { description: 'AMAZON MKTPLACE', amount: -2700 }).confidence).toBeLessThan(CONFIDENT);
  });

  it('matches a near spelling on shared words, less confidently', () => {
    const result = suggest(model, { description: 'GREEN BASKET DOWNTOWN', amount: -2500 });
    expect(result.category).toBe('Groceries');
    expect(result.confidence).toBeLessThan(CONFIDENT);
    expect(result.reason).toBe("Looks like 'GREEN BASKET': 14 earlier 'GREEN BASKET' rows were Groceries");
  });

  it('uses the sign: money in at a shop is weaker evidence and says so', () => {
    const refund = suggest(model, { description: 'GREEN BASKET', amount: 2500 });
    expect(refund.category).toBe('Groceries');
    expect(refund.confidence).toBeLessThan(0.5);
    expect(refund.reason).toBe("14 earlier 'GREEN BASKET' rows (money out) were Groceries");
  });

  it('answers no category for an unknown merchant, and for an empty history', () => {
    expect(suggest(model, { description: 'TOTALLY NEW PLACE', amount: -100 })).toEqual({
      category: null,
      confidence: 0,
      reason: 'No earlier transaction looks like this one',
    });
    expect(suggest(learn([]), { description: 'GREEN BASKET', amount: -100 }).category).toBeNull();
  });

  it('answers in order, with confidence between 0 and 1', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ description: fc.string({ maxLength: 30 }), amount: fc.integer({ min: -1e9, max: 1e9 }) }),
          { maxLength: 20 },
        ),
        (input) => {
          const answers = suggestAll(model, input);
          expect(answers).toHaveLength(input.length);
          for (const answer of answers) {
            expect(answer.confidence).toBeGreaterThanOrEqual(0);
            expect(answer.confidence).toBeLessThanOrEqual(1);
            expect(answer.category === null).toBe(answer.confidence === 0);
          }
        },
      ),
    );
  });
});

describe('a model brought forward row by row (an imported batch) answers as one learned afresh', () => {
  const merchant = fc.constantFrom(
    'GREEN BASKET',
    'SHELL OIL 12',
    'POS CORNER BAKERY',
    'AMZN Mktp US*2K',
    'NETFLIX.COM',
    'Green Basket 0412',
  );
  const row = fc.record({
    description: merchant,
    amount: fc.integer({ min: -50_000, max: 50_000 }).filter((a) => a !== 0),
    category: fc.constantFrom('Groceries', 'Fuel', 'Treats', 'Shopping'),
  });
  it('for any history and batch', () => {
    fc.assert(
      fc.property(
        fc.array(row, { maxLength: 30 }),
        fc.array(row, { minLength: 1, maxLength: 30 }),
        fc.array(row, { minLength: 1, maxLength: 5 }),
        (history, batch, asked) => {
          const forward = learn(history);
          suggestAll(forward, asked); // memos filled before the batch must not go stale
          for (const r of batch) addRow(forward, r);
          expect(suggestAll(forward, asked)).toEqual(suggestAll(learn([...history, ...batch]), asked));
        },
      ),
      { numRuns: 200 },
    );
  });
});
