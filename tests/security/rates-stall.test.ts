import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { startServer, type TestServer } from '../helpers/server';
import { encodedForm, LOOP_TURN_BOUND_CPU_MS, rawRequest, whileProbingHealth } from '../helpers/stall-watch';

/**
 * The ECB's whole history since 1999, as a user downloads it (about 6,500 days of 41 currencies,
 * `N/A` where a currency had ended, newest first), imported as CSV and as XML while /api/health is
 * asked over and over: reading and storing some 200,000 rates never keeps the event loop from turning.
 */
const CODES = (
  'USD,JPY,BGN,CYP,CZK,DKK,EEK,GBP,HUF,LTL,LVL,MTL,PLN,ROL,RON,SEK,SIT,SKK,CHF,ISK,NOK,HRK,RUB,TRL,TRY,' +
  'AUD,BRL,CAD,CNY,HKD,IDR,ILS,INR,KRW,MXN,MYR,NZD,PHP,SGD,THB,ZAR'
).split(',');

/** [date, [code, rate text or 'N/A']...] for every weekday from 1999-01-04, newest first. */
function history(): [string, [string, string][]][] {
  const days: [string, [string, string][]][] = [];
  for (let i = 0; i < 9_400; i += 1) {
    const day = new Date(Date.UTC(1999, 0, 4) + i * 86_400_000);
    if (day.getUTCDay() === 0 || day.getUTCDay() === 6) continue;
    const rates = CODES.map((code, k): [string, string] => [
      code,
      k % 7 === 3 && i > 3_000 ? 'N/A' : (1 + k * 3.1 + Math.sin(i / 50)).toFixed(4),
    ]);
    days.push([day.toISOString().slice(0, 10), rates]);
  }
  return days.reverse();
}

const csv = () =>
  [
    `Date,${CODES.join(',')},`,
    ...history().map(([date, rates]) => `${date},${rates.map((r) => r[1]).join(',')},`),
  ].join('\n');

const xml = () =>
  [
    '<?xml version="1.0" encoding="UTF-8"?><gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref"><Cube>',
    ...history().map(
      ([date, rates]) =>
        `<Cube time="${date}">${rates
          .filter(([, rate]) => rate !== 'N/A')
          .map(([code, rate]) => `<Cube currency="${code}" rate="${rate}"/>`)
          .join('')}</Cube>`,
    ),
    '</Cube></gesmes:Envelope>',
  ].join('\n');

let server: TestServer;
let user: ApiUser;
beforeAll(async () => {
  server = await startServer();
  user = await signUp(server.url);
});
afterAll(async () => {
  await server.close();
});

describe("the ECB's whole history", () => {
  it.each([
    ['eurofxref-hist.csv', csv],
    ['eurofxref-hist.xml', xml],
  ])('%s is imported while the server keeps answering', async (name, file) => {
    const { bytes, contentType } = await encodedForm(server.url, file(), {}, name);
    const { value, longestTurnCpuMs, probes } = await whileProbingHealth(server.url, () =>
      rawRequest(server.url, 'POST', '/api/rates', { token: user.token, body: bytes, contentType }),
    );
    expect(value.status, JSON.stringify(value.body).slice(0, 300)).toBe(201);
    expect(value.body).toMatchObject({ firstDate: '1999-01-04', currencies: expect.arrayContaining(['EUR', 'JPY']) });
    expect(value.body.imported).toBeGreaterThan(180_000);
    expect(probes).toBeGreaterThan(0);
    expect(longestTurnCpuMs).toBeLessThan(LOOP_TURN_BOUND_CPU_MS);
    // The newest day's yen rate answers as stored.
    const [newest, rates] = history()[0];
    const yen = rates.find(([code]) => code === 'JPY')![1];
    const answer = ok<{ rate: string; date: string }>(await user.get(`/api/rates?base=EUR&quote=JPY&date=${newest}`));
    expect(answer).toMatchObject({ rate: yen, date: newest });
  });
});
