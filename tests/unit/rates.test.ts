import { describe, expect, it } from 'vitest';
import { convertAmount, findRate, fractionText, rateOnDate } from '../../src/shared/rates/lookup';
import { readRates, type RateRow } from '../../src/shared/rates/read-rates';

const ECB_CSV = [
  'Date,USD,JPY,CYP,GBP,BHD,',
  '2024-01-05,1.0921,158.65,N/A,0.86125,,',
  '2024-01-04,1.0953,157.93,N/A,0.86290,,',
].join('\n');

const ECB_XML = `<?xml version="1.0" encoding="UTF-8"?>
<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
<gesmes:subject>Reference rates</gesmes:subject>
<Cube><Cube time="2024-01-05"><Cube currency="USD" rate="1.0921"/><Cube currency="JPY" rate="158.65"/></Cube>
<Cube time="2024-01-04"><Cube currency="USD" rate="1.0953"/></Cube></Cube></gesmes:Envelope>`;

describe('readRates', () => {
  it("reads the ECB's CSV against EUR, leaving out N/A, empty cells and codes ISO 4217 no longer lists", () => {
    const read = readRates(ECB_CSV);
    expect(read).toMatchObject({ ok: true, format: 'ecb-csv', ignoredCurrencies: ['CYP'], skipped: 0 });
    if (!read.ok) return;
    expect(read.rows).toContainEqual({ date: '2024-01-05', base: 'EUR', quote: 'GBP', rate: '0.86125' });
    expect(read.rows).toContainEqual({ date: '2024-01-04', base: 'EUR', quote: 'GBP', rate: '0.8629' });
    expect(read.rows).toHaveLength(6);
  });

  it("reads the ECB's XML", () => {
    const read = readRates(ECB_XML);
    expect(read.ok && read.format).toBe('ecb-xml');
    expect(read.ok && read.rows).toEqual([
      { date: '2024-01-05', base: 'EUR', quote: 'USD', rate: '1.0921' },
      { date: '2024-01-05', base: 'EUR', quote: 'JPY', rate: '158.65' },
      { date: '2024-01-04', base: 'EUR', quote: 'USD', rate: '1.0953' },
    ]);
  });

  it('reads date,base,quote,rate and refuses a wrong line naming it', () => {
    const read = readRates('date,base,quote,rate\n2024-02-01,gbp,chf,1.1012\n');
    expect(read.ok && read.rows).toEqual([{ date: '2024-02-01', base: 'GBP', quote: 'CHF', rate: '1.1012' }]);
    for (const [line, message] of [
      ['2024-02-30,GBP,CHF,1.1', /Line 2: the date/],
      ['2024-02-01,GBP,XXX,1.1', /Line 2: 'XXX' is not an ISO 4217/],
      ['2024-02-01,GBP,CHF,-1', /Line 2: the rate '-1'/],
      ['2024-02-01,GBP,CHF,0', /Line 2: the rate '0'/],
      ['2024-02-01,GBP,GBP,1', /same currency/],
    ] as const) {
      const bad = readRates(`date,base,quote,rate\n${line}\n`);
      expect(bad.ok).toBe(false);
      if (!bad.ok) expect(bad.message).toMatch(message);
    }
    expect(readRates('hello,world\n1,2').ok).toBe(false);
    expect(readRates('').ok).toBe(false);
  });
});

const rows: RateRow[] = [
  { date: '2024-01-05', base: 'EUR', quote: 'GBP', rate: '0.86125' },
  { date: '2024-01-05', base: 'EUR', quote: 'JPY', rate: '158.65' },
  { date: '2024-01-04', base: 'EUR', quote: 'GBP', rate: '0.8629' },
  { date: '2024-01-04', base: 'EUR', quote: 'JPY', rate: '157.93' },
];

describe('findRate', () => {
  it('takes a rate directly, inverted, or crossed through the common base on the same date', () => {
    expect(findRate(rows, 'EUR', 'GBP', '2024-01-05')).toMatchObject({ date: '2024-01-05', via: null });
    const inverse = findRate(rows, 'GBP', 'EUR', '2024-01-05');
    expect(inverse && fractionText(inverse.fraction)).toBe('1.1611030479');
    const cross = findRate(rows, 'GBP', 'JPY', '2024-01-05');
    expect(cross).toMatchObject({ date: '2024-01-05', via: 'EUR' });
    // 158.65 / 0.86125 = 184.2089985486...
    expect(cross && fractionText(cross.fraction)).toBe('184.2089985486');
  });

  it('uses the latest rate on or before the day, at most seven days older', () => {
    expect(findRate(rows, 'EUR', 'JPY', '2024-01-07')?.date).toBe('2024-01-05');
    expect(findRate(rows, 'EUR', 'JPY', '2024-01-04')?.date).toBe('2024-01-04');
    expect(findRate(rows, 'EUR', 'JPY', '2024-01-12')?.date).toBe('2024-01-05');
    expect(findRate(rows, 'EUR', 'JPY', '2024-01-13')).toBeNull();
    expect(findRate(rows, 'EUR', 'JPY', '2024-01-03')).toBeNull();
    expect(findRate(rows, 'EUR', 'USD', '2024-01-05')).toBeNull();
  });

  it('needs both legs of a cross rate on one date', () => {
    const partial: RateRow[] = [
      { date: '2024-01-05', base: 'EUR', quote: 'GBP', rate: '0.86125' },
      { date: '2024-01-04', base: 'EUR', quote: 'JPY', rate: '157.93' },
    ];
    expect(rateOnDate(partial.slice(0, 1), 'GBP', 'JPY')).toBeNull();
    expect(findRate(partial, 'GBP', 'JPY', '2024-01-05')).toBeNull();
  });
});

describe('convertAmount', () => {
  const gbp = { num: 86125n, den: 100000n };
  it.each([
    // 400 cents x 0.86125 = 344.5: the tie goes to the even 344; 600 x 0.86125 = 516.75 -> 517
    [400, 344],
    [600, 517],
    [-400, -344],
    [1400, 1206],
    [100, 86],
    [0, 0],
  ])('%d EUR cents -> %d GBP pence, half to even', (amount, expected) => {
    expect(convertAmount(amount, gbp, 2, 2)).toBe(expected);
  });

  it('follows the minor units of both currencies', () => {
    // 1,000 yen at 1/158.65 EUR per yen: 6.3031... EUR -> 630 cents
    expect(convertAmount(1000, { num: 100n, den: 15865n }, 0, 2)).toBe(630);
    // 12.34 EUR at 158.65 = 1957.741 yen -> 1958
    expect(convertAmount(1234, { num: 15865n, den: 100n }, 2, 0)).toBe(1958);
    expect(convertAmount(10_000_000_000_000, { num: 15865n, den: 100n }, 2, 0)).toBe(15_865_000_000_000);
  });
});
