import { describe, expect, it } from 'vitest';
import { runSteps } from '../../src/shared/csv/steps';
import type { RateFraction } from '../../src/shared/rates/lookup';
import { crossCurrencyOffers, type CurrencyRow } from '../../src/shared/transfers/cross-currency';

/** Pairs across currencies offered on import: about the out side's day's rate, within the window, never linked. */
const ACCOUNTS = [
  { id: 1, name: 'Euro' },
  { id: 2, name: 'Pounds' },
  { id: 3, name: 'Yen' },
];
const CURRENCY: Record<number, string> = { 1: 'EUR', 2: 'GBP', 3: 'JPY' };
/** One EUR in each currency, each rate serving the week after it; March has none. */
const PER_EUR: Record<string, Record<string, [bigint, bigint]>> = {
  '2024-04-01': { GBP: [85n, 100n], JPY: [160n, 1n] },
  '2024-04-02': { GBP: [852n, 1000n], JPY: [161n, 1n] },
};
function rateOf(from: string, to: string, postDate: string): RateFraction | null {
  const day = PER_EUR[postDate] ?? PER_EUR[postDate >= '2024-04-02' && postDate <= '2024-04-09' ? '2024-04-02' : ''];
  if (!day) return null;
  const leg = (code: string): [bigint, bigint] => (code === 'EUR' ? [1n, 1n] : day[code]);
  const [fn, fd] = leg(from);
  const [tn, td] = leg(to);
  return { num: tn * fd, den: td * fn };
}

let nextId = 100;
const row = (accountId: number, postDate: string, amount: number, description = ''): CurrencyRow => ({
  id: nextId++,
  accountId,
  postDate,
  amount,
  description,
  currency: CURRENCY[accountId],
});

function offers(fresh: CurrencyRow[], others: CurrencyRow[], dismissed: [number, number][] = []) {
  const isDismissed = (a: number, b: number) =>
    dismissed.some(([x, y]) => (x === a && y === b) || (x === b && y === a));
  return runSteps(crossCurrencyOffers(fresh, others, ACCOUNTS, 3, rateOf, isDismissed));
}

describe('crossCurrencyOffers', () => {
  it.each<[string, CurrencyRow, CurrencyRow, boolean]>([
    ['the day’s rate exactly', row(1, '2024-04-02', -10000), row(2, '2024-04-03', 8520), true],
    ['money in on the batch side', row(1, '2024-04-02', 10000), row(2, '2024-04-02', -8520), true],
    ['yen have no decimals', row(1, '2024-04-02', -10000), row(3, '2024-04-02', 16100), true],
    ['5% off, the edge', row(1, '2024-04-02', -10000), row(2, '2024-04-02', 8946), true],
    ['more than 5% off', row(1, '2024-04-02', -10000), row(2, '2024-04-02', 8947), false],
    ['both money out', row(1, '2024-04-02', -10000), row(2, '2024-04-02', -8520), false],
    ['four days apart', row(1, '2024-04-02', -10000), row(2, '2024-04-06', 8520), false],
    ['no rate on the out side’s day', row(1, '2024-03-10', -10000), row(2, '2024-03-10', 8520), false],
    ['the same account', row(2, '2024-04-02', -8520), row(2, '2024-04-02', 8520), false],
  ])('%s', (_name, fresh, other, offered) => {
    const found = offers([fresh], [other]);
    expect(found.length).toBe(offered ? 1 : 0);
    if (!offered) return;
    const [out, arrived] = fresh.amount < 0 ? [fresh, other] : [other, fresh];
    expect(found[0]).toMatchObject({ fromId: out.id, toId: arrived.id });
  });

  it('says the rate, how far off it is and which description names the other account, and scores by them', () => {
    const out = row(1, '2024-04-02', -10000, 'TO POUNDS');
    const exact = row(2, '2024-04-02', 8520);
    const off = row(2, '2024-04-03', 8700);
    const found = offers([out], [off, exact]);
    expect(found.map((pair) => [pair.toId, pair.score, pair.reason])).toEqual([
      [exact.id, 65, "the same day; the amounts imply 1 EUR = 0.852 GBP, the day's rate; 'TO POUNDS' names Pounds"],
      [
        off.id,
        58,
        "1 day apart; the amounts imply 1 EUR = 0.87 GBP, 2.1% off the day's rate of 0.852; 'TO POUNDS' names Pounds",
      ],
    ]);
  });

  it('offers at most three per row, and a row of the other accounts with one batch row only', () => {
    const out = row(1, '2024-04-02', -10000);
    const near = [16100, 16000, 15800, 16500].map((yen) => row(3, '2024-04-02', yen));
    expect(offers([out], near).map((pair) => pair.toId)).toEqual([near[0], near[1], near[2]].map((r) => r?.id));
    const second = row(1, '2024-04-03', -10000);
    const single = row(3, '2024-04-02', 16100);
    const found = offers([second, out], [single]);
    expect(found.map((pair) => [pair.fromId, pair.toId])).toEqual([[out.id, single.id]]);
  });

  it('never offers a pair a person turned down', () => {
    const out = row(1, '2024-04-02', -10000);
    const arrived = row(2, '2024-04-02', 8520);
    expect(offers([out], [arrived], [[arrived.id, out.id]])).toEqual([]);
  });
});
