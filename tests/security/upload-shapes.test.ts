import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readImport } from '../../src/shared/import/read-file';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { rest } from '../helpers/http';
import { cpuTimeOf, watchLoopTurns } from '../helpers/loop-turns';
import { startServer, type TestServer } from '../helpers/server';

/**
 * Attacks on the importer: files shaped to make reading slow (many empty columns, one huge
 * line, many tiny rows, long quoted multi-line fields, random bytes, XML bombs, deep nesting)
 * must be read in time linear in their size, in steps, so GET /api/health keeps answering during
 * the whole upload and no step holds the event loop for long; absurd shapes are refused early with
 * 422. And the multipart body itself: extra files or fields, and malformed bodies, answer 400.
 *
 * Time is CPU time of this process (the server runs in it), never wall-clock time: a busy machine
 * makes every request slower but does not give a step more CPU to burn.
 */
let server: TestServer;
let user: ApiUser;
beforeAll(async () => {
  server = await startServer();
  user = await signUp(server.url);
  ok(await user.post('/api/accounts', { name: 'Checking', type: 'checking' }));
});
afterAll(async () => {
  await server.close();
});

/**
 * The longest stretch of work allowed between two turns of the event loop, in CPU milliseconds. Steps
 * of reading take a few milliseconds; GC threads and the probing client share the figure, hence room.
 */
const LOOP_TURN_BOUND_CPU_MS = 150;

function form(file: Uint8Array | string, fields: Record<string, string>, fileName = 'attack.csv'): FormData {
  const body = new FormData();
  body.append('file', new Blob([file as BlobPart]), fileName);
  for (const [key, value] of Object.entries(fields)) body.append(key, value);
  return body;
}

/**
 * A multipart body encoded to bytes, with its content type. Encoded before the watch starts and sent by rawUpload:
 * fetch sends a FormData (or even a byte array) through web streams, cloning and pulling the file chunk after chunk
 * in microtasks of this very thread, where the server runs too; for 9 MB that held the event loop for up to 160 ms of
 * CPU on a busy machine, which the watch charged to the server (a profile showed undici's extractBody, pull and
 * cloneAsUint8Array in the longest turns, not the reading).
 */
async function encoded(body: FormData): Promise<{ bytes: Uint8Array; contentType: string }> {
  const request = new Request(server.url, { method: 'POST', body });
  const bytes = new Uint8Array(await request.arrayBuffer());
  return { bytes, contentType: request.headers.get('content-type') ?? '' };
}

/**
 * Sends the upload and, until it is answered, asks /api/health over and over (every reply must be
 * 200); answers the longest turn of the event loop meanwhile, in CPU time, and how many probes got
 * answered before the upload.
 */
async function uploadWhileProbingHealth(
  file: Uint8Array | string,
  fields: Record<string, string> = { dryRun: 'true' },
) {
  const { bytes, contentType } = await encoded(form(file, { account: 'Checking', ...fields }));
  const watch = watchLoopTurns();
  let done = false;
  // Read through a call: `done` is set by the request's callback, which control-flow narrowing cannot follow.
  const isDone = () => done;
  const upload = rawUpload(bytes, contentType).finally(() => {
    done = true;
  });
  let probes = 0;
  while (!isDone()) {
    const res = await fetch(`${server.url}/api/health`);
    await res.text();
    expect(res.status).toBe(200);
    probes += 1;
  }
  const answer = await upload;
  const { longestTurnCpuMs } = watch.stop();
  return { answer, longestTurnCpuMs, probes };
}

const csvLines = (header: string, count: number, line: (i: number) => string) => {
  const lines = [header];
  for (let i = 0; i < count; i += 1) lines.push(line(i));
  return lines.join('\n');
};

const PATHOLOGICAL: [string, () => Uint8Array | string, number[], string | null][] = [
  [
    'a header of 50,000 commas over 40,000 rows',
    () => csvLines(`Date,Description,Amount${','.repeat(50_000)}`, 40_000, (i) => `2024-07-01,r${i},-1`),
    [422],
    'more than 200 columns',
  ],
  [
    '199 empty columns on 40,000 rows',
    () => csvLines(`Date,Description,Amount${','.repeat(196)}`, 40_000, (i) => `2024-07-01,r${i},-1${','.repeat(196)}`),
    [200],
    null,
  ],
  [
    'one 5 MB line',
    () => `Date,Description,Amount\n2024-07-01,${'x'.repeat(5 * 1024 * 1024)},-1\n`,
    [422],
    'longer than 64 KB',
  ],
  ['100,000 one-character rows', () => 'a\n'.repeat(100_000), [422], 'Choose what each column holds'],
  [
    'a quoted field over 64 KB spanning many lines',
    () => `Date,Description,Amount\n2024-07-01,"${'memo line\n'.repeat(20_000)}",-1\n`,
    [422],
    'longer than 64 KB',
  ],
  [
    '150 quoted multi-line fields of 60 KB',
    () => csvLines('Date,Description,Amount', 150, (i) => `2024-07-01,"${`m${i}\n`.padEnd(60_000, 'y')}",-1`),
    [200],
    null,
  ],
  ['5 MB of random bytes', () => new Uint8Array(randomBytes(5 * 1024 * 1024)), [415], 'binary'],
  [
    '8 MB of random printable text',
    () =>
      Array.from(
        { length: (8 * 1024 * 1024) / 64 },
        (_, i) => `${i % 7 ? ',' : '"'}${randomBytes(24).toString('base64')}${i % 3 ? '\n' : ';'}`,
      ).join(''),
    [400, 422],
    null,
  ],
  [
    'an XML bomb',
    () =>
      `<?xml version="1.0"?><!DOCTYPE lolz [${Array.from({ length: 10 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i};`.repeat(10)}">`).join('')}]><Document><BkToCstmrStmt><Stmt><Ntry><Amt>&lol10;</Amt></Ntry></Stmt></BkToCstmrStmt></Document>`,
    [422],
    'entities',
  ],
  [
    '3 MB of nested CAMT elements',
    () => `<?xml version="1.0"?><Document><BkToCstmrStmt>${'<Stmt>'.repeat(500_000)}`,
    [422],
    'nests',
  ],
  [
    'an OFX field of 6 MB',
    () => `OFXHEADER:100\n\n<OFX><STMTTRN><NAME>${'&amp;'.repeat(1_200_000)}</STMTTRN></OFX>`,
    [422],
    'longer than 64 KB',
  ],
  ['30,000 CAMT entries', () => camtEntries(30_000), [200], null],
  ['a CAMT.053 of 50,000 statements of distinct accounts', () => camtAccounts(50_000), [200], null],
  ['an OFX of 50,000 statements of distinct accounts', () => ofxAccounts(50_000), [200], null],
  [
    'a QIF line of 5 MB',
    () => `!Type:Bank\nD01/02/2024\nT-1.00\nP${'p'.repeat(5 * 1024 * 1024)}\n^\n`,
    [422],
    'longer than 64 KB',
  ],
];

function camtEntries(n: number): string {
  const entry = (i: number) =>
    `<Ntry><Amt Ccy="EUR">${(i % 900) + 1}.25</Amt><CdtDbtInd>${i % 2 ? 'DBIT' : 'CRDT'}</CdtDbtInd><BookgDt><Dt>2024-0${(i % 9) + 1}-1${i % 10}</Dt></BookgDt><AcctSvcrRef>REF${i}</AcctSvcrRef><NtryDtls><TxDtls><RltdPties><Cdtr><Nm>Shop ${i % 97}</Nm></Cdtr></RltdPties><RmtInf><Ustrd>Invoice ${i}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`;
  return `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.02"><BkToCstmrStmt><Stmt>${Array.from({ length: n }, (_, i) => entry(i)).join('\n')}</Stmt></BkToCstmrStmt></Document>`;
}

/** One statement (one entry) per account: a file of many accounts must be read in linear time. */
function camtAccounts(n: number): string {
  const statement = (i: number) =>
    `<Stmt><Acct><Id><IBAN>DE${String(i).padStart(20, '0')}</IBAN></Id></Acct><Ntry><Amt Ccy="EUR">1.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><BookgDt><Dt>2024-01-02</Dt></BookgDt></Ntry></Stmt>`;
  return `<?xml version="1.0"?><Document><BkToCstmrStmt>${Array.from({ length: n }, (_, i) => statement(i)).join('')}</BkToCstmrStmt></Document>`;
}

function ofxAccounts(n: number): string {
  const statement = (i: number) =>
    `<STMTTRNRS><STMTRS><CURDEF>USD<BANKACCTFROM><ACCTID>${i}</BANKACCTFROM><BANKTRANLIST><STMTTRN><DTPOSTED>20240102<TRNAMT>-1.00<FITID>F${i}</STMTTRN></BANKTRANLIST></STMTRS></STMTTRNRS>`;
  return `OFXHEADER:100\nDATA:OFXSGML\n\n<OFX><BANKMSGSRSV1>${Array.from({ length: n }, (_, i) => statement(i)).join('')}</BANKMSGSRSV1></OFX>`;
}

describe('statements of many accounts', () => {
  it.each([
    ['CAMT.053', camtAccounts],
    ['OFX', ofxAccounts],
  ])('%s: the warning names a few accounts and the preview lists a bounded number', (_label, make) => {
    const read = readImport(make(5_000));
    if (!read.ok) throw new Error(read.message);
    const warning = read.warnings.find((w) => w.includes('accounts'));
    expect(warning).toContain('5000 accounts');
    expect(warning).toContain('and 4995 more');
    expect(warning!.length).toBeLessThan(300);
    expect(read.statements?.length).toBe(50);
  });
});

describe('pathological uploads keep the server answering', () => {
  it.each(PATHOLOGICAL)('%s', async (_label, make, statuses, text) => {
    const { answer, longestTurnCpuMs, probes } = await uploadWhileProbingHealth(make());
    expect(statuses, JSON.stringify(answer.body).slice(0, 300)).toContain(answer.status);
    if (text) expect(answer.body.error).toContain(text);
    expect(probes).toBeGreaterThan(0);
    expect(
      longestTurnCpuMs,
      `one turn of the event loop took ${longestTurnCpuMs.toFixed(0)} ms of CPU during the upload`,
    ).toBeLessThan(LOOP_TURN_BOUND_CPU_MS);
  });

  it('a refused upload writes nothing', async () => {
    expect(ok(await user.get('/api/transactions/batches/list'))).toEqual([]);
  });
});

describe('reading time is bounded by the size of the file (fuzz)', () => {
  /**
   * Linear, in CPU time with room for GC: 100 ms for any call plus 10 µs a byte. Quadratic reading would take seconds on the larger inputs.
   */
  const bound = (bytes: number) => 100 + bytes * 0.01;
  const piece = fc.oneof(
    fc.constantFrom(
      ',',
      ';',
      '\t',
      '|',
      '"',
      '""',
      '\n',
      '\r\n',
      '\r',
      ' ',
      '-',
      '.',
      ':',
      '\u0000',
      '\u0007',
      '<',
      '>',
      '</',
      '&amp;',
      '&#x41;',
      '!Type:Bank\n',
      '^\n',
      'OFXHEADER:100\n',
      '<OFX>',
      '<STMTTRN>',
      '<Ntry>',
      "D1/5'24\n",
      'T-1.00\n',
      'Date,Description,Amount\n',
      '2024-01-31',
      '31.12.2024',
      '1.234,56',
      '(12.00)',
      'CR',
      'DR',
      'Af',
      'Bij',
    ),
    fc.string({ maxLength: 20 }),
    fc.stringMatching(/^[\d/.,\- ]{1,12}$/),
  );
  it('any mix of separators, quotes, tags, dates and control characters', () => {
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 400 }), fc.integer({ min: 1, max: 200 }), (pieces, repeat) => {
        const text = pieces.join('').repeat(repeat);
        const bytes = new TextEncoder().encode(text);
        const { value: result, cpuMs } = cpuTimeOf(() => readImport(bytes));
        expect(typeof result.ok).toBe('boolean');
        expect(cpuMs, `${bytes.length} bytes took ${cpuMs.toFixed(1)} ms of CPU`).toBeLessThan(bound(bytes.length));
      }),
      { numRuns: 150 },
    );
  });
});

/** Sends a raw multipart body (fetch would build a well-formed one), written to the socket at once. */
function rawUpload(
  body: string | Uint8Array,
  contentType: string,
): Promise<{ status: number; body: { error?: string } }> {
  const url = new URL(`${server.url}/api/upload`);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        hostname: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          authorization: `Bearer ${user.token}`,
          'content-type': contentType,
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || '{}') }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('the multipart body of POST /api/upload', () => {
  const csv = 'Date,Description,Amount\n2024-01-01,x,-1.00\n';
  it('refuses a second file with 400 saying so, not a misleading 413', async () => {
    const body = form(csv, { account: 'Checking' });
    body.append('file', new Blob([csv]), 'second.csv');
    const res = await rest(server.url, 'POST', '/api/upload', { token: user.token, body });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('one file');
  });
  it('refuses a file in another field', async () => {
    const body = form(csv, { account: 'Checking' });
    body.append('attachment', new Blob([csv]), 'x.csv');
    const res = await rest(server.url, 'POST', '/api/upload', { token: user.token, body });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/one file|'attachment'/);
  });
  it.each([
    ['an unknown field', { account: 'Checking', colour: 'blue' }, "Unknown field 'colour'"],
    ['too many fields', Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`f${i}`, 'x'])), 'Unknown field'],
  ])('refuses %s with 400', async (_label, fields, text) => {
    const res = await rest(server.url, 'POST', '/api/upload', {
      token: user.token,
      body: form(csv, fields as Record<string, string>),
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(text);
  });
  it('refuses a field sent twice', async () => {
    const body = form(csv, { account: 'Checking' });
    body.append('account', 'Other');
    const res = await rest(server.url, 'POST', '/api/upload', { token: user.token, body });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain("'account' is sent twice");
  });
  it('refuses a field sent as JSON instead of text, not reading it as "[object Object]"', async () => {
    const body = [
      '--XYZ\r\nContent-Disposition: form-data; name="account"\r\nContent-Type: application/json\r\n\r\n{"name":"Checking"}\r\n',
      `--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n`,
      '--XYZ--\r\n',
    ].join('');
    const res = await rawUpload(body, 'multipart/form-data; boundary=XYZ');
    expect(res.status).toBe(400);
    expect(res.body.error).toContain("'account' must be plain text");
  });
  it.each([
    ['--XYZ\r\nTrue--XYZ--', 'multipart/form-data; boundary=XYZ'],
    [
      '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nDate,Amount\r\n',
      'multipart/form-data; boundary=XYZ',
    ],
    ['garbage without any boundary', 'multipart/form-data; boundary=XYZ'],
  ])('answers 400, not 500, to a malformed body %#', async (body, type) => {
    const res = await rawUpload(body, type);
    expect(res.status).toBe(400);
    expect(res.body.error).toBeTruthy();
  });
  it('nothing was stored by any of these', async () => {
    expect(ok(await user.get('/api/transactions/batches/list'))).toEqual([]);
  });
});
