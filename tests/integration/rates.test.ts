import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data, ok, signUp, type ApiUser } from '../helpers/api';
import { rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

/** The instance's exchange rates over HTTP: importing ECB and plain files, one rate by hand, lookups. */
let server: TestServer;
let user: ApiUser;
beforeAll(async () => {
  server = await startServer();
  user = await signUp(server.url);
});
afterAll(async () => {
  await server.close();
});

function postFile(text: string) {
  const body = new FormData();
  body.append('file', new Blob([text]), 'eurofxref-hist.csv');
  return rest(server.url, 'POST', '/api/rates', { token: user.token, body });
}

const ECB = [
  'Date,USD,JPY,BGN,CYP,GBP,CHF,',
  '2023-03-03,1.0615,144.40,1.9558,N/A,0.88400,0.9963,',
  '2023-03-02,1.0603,144.70,1.9558,N/A,0.88705,0.9983,',
  '2023-03-01,1.0674,145.30,1.9558,N/A,0.88040,1.0023,',
].join('\n');

describe('/api/rates', () => {
  it("imports the ECB's CSV and answers direct, inverted and cross rates with the date used", async () => {
    const res = await postFile(ECB);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      format: 'ecb-csv',
      imported: 15,
      firstDate: '2023-03-01',
      lastDate: '2023-03-03',
      ignoredCurrencies: ['CYP'],
    });
    expect(ok(await user.get('/api/rates?base=EUR&quote=GBP&date=2023-03-02'))).toEqual({
      base: 'EUR',
      quote: 'GBP',
      date: '2023-03-02',
      rateDate: '2023-03-02',
      rate: '0.88705',
      via: null,
    });
    // Sunday takes Friday's rates; GBP to JPY is crossed through EUR: 144.40 / 0.884.
    expect(ok(await user.get('/api/rates?base=gbp&quote=jpy&date=2023-03-05'))).toMatchObject({
      rateDate: '2023-03-03',
      rate: '163.3484162896',
      via: 'EUR',
    });
    expect(ok(await user.get('/api/rates?base=JPY&quote=EUR&date=2023-03-01')).rate).toBe('0.0068823125');
    const pairs = ok(await user.get('/api/rates/pairs'));
    expect(pairs).toContainEqual({
      base: 'EUR',
      quote: 'GBP',
      count: 3,
      firstDate: '2023-03-01',
      lastDate: '2023-03-03',
      lastRate: '0.884',
    });
  });

  it('answers 404 for a day with no rate within seven days, naming the pair', async () => {
    const res = await user.get('/api/rates?base=EUR&quote=GBP&date=2023-03-11');
    expect(res.status).toBe(404);
    expect(res.body.error).toMatch(/No EUR to GBP rate on 2023-03-11/);
    expect((await user.get('/api/rates?base=EUR&quote=KRW&date=2023-03-03')).status).toBe(404);
    expect((await user.get('/api/rates?base=EUR&quote=EURO')).status).toBe(400);
  });

  it('sets, replaces and deletes one rate; a wrong rate changes nothing', async () => {
    ok(await user.put('/api/rates', { date: '2023-03-03', base: 'GBP', quote: 'KRW', rate: '1560.10' }));
    expect(ok(await user.get('/api/rates?base=GBP&quote=KRW&date=2023-03-04')).rate).toBe('1560.1');
    ok(await user.put('/api/rates', { date: '2023-03-03', base: 'GBP', quote: 'KRW', rate: 1570 }));
    expect(ok(await user.get('/api/rates?base=KRW&quote=GBP&date=2023-03-03')).rate).toBe('0.0006369427');
    for (const rate of ['-1', '0', 'abc', '']) {
      const refused = await user.put('/api/rates', { date: '2023-03-03', base: 'GBP', quote: 'KRW', rate });
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body)).toMatch(/rate/);
    }
    expect(ok(await user.get('/api/rates?base=GBP&quote=KRW&date=2023-03-03')).rate).toBe('1570');
    ok(await user.del('/api/rates?base=GBP&quote=KRW&date=2023-03-03'));
    expect((await user.get('/api/rates?base=GBP&quote=KRW&date=2023-03-03')).status).toBe(404);
    expect((await user.del('/api/rates?base=GBP&quote=KRW&date=2023-03-03')).status).toBe(404);
  });

  it('takes the plain CSV and the XML through tRPC as well, and refuses a file that is no rates file', async () => {
    const plain = data(
      await user.trpc.rates.import.mutate({ text: 'date,base,quote,rate\n2023-04-03,USD,CAD,1.3512\n' }),
    );
    expect(plain).toMatchObject({ format: 'csv', imported: 1 });
    expect(data(await user.trpc.rates.lookup.query({ base: 'CAD', quote: 'USD', date: '2023-04-04' }))).toMatchObject({
      rateDate: '2023-04-03',
      rate: '0.7400828893',
    });
    const xml = `<gesmes:Envelope><Cube><Cube time="2023-05-02"><Cube currency="USD" rate="1.0986"/></Cube></Cube></gesmes:Envelope>`;
    expect(data(await user.trpc.rates.import.mutate({ text: xml })).imported).toBe(1);
    const bad = await postFile('Date;Amount\n2023-01-01;12');
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatch(/not a rates file/);
    const badLine = await postFile('date,base,quote,rate\n2023-04-03,USD,CAD,1.35\n2023-04-04,USD,CAD,x\n');
    expect(badLine.status).toBe(422);
    expect(badLine.body.error).toMatch(/Line 3/);
    expect((await user.get('/api/rates?base=USD&quote=CAD&date=2023-04-03')).body.rate).toBe('1.3512');
  });
});
