import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detectFormat } from '../../src/shared/import/read-file';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { cpuTimeOf } from '../helpers/loop-turns';
import { startServer, type TestServer } from '../helpers/server';
import { encodedForm, LOOP_TURN_BOUND_CPU_MS, rawRequest, whileProbingHealth } from '../helpers/stall-watch';

/**
 * Attacks on telling a file's format from its first characters: small uploads whose start is made of repeated
 * comments, DOCTYPE declarations, processing instructions or half-open tags, the shapes that make a
 * backtracking pattern over the prolog take exponential time. Each is answered (as CSV, OFX, or refused) while
 * the server keeps answering, and telling the format takes time linear in the file's start.
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

const SHAPES: [string, string][] = [
  ['empty comments then a letter', `${'<!---->'.repeat(30)}x`],
  ['empty DOCTYPEs with subsets', `${'<!DOCTYPE a[]>'.repeat(30)}x`],
  ['comments and spaces', `<?xml version="1.0"?>${'<!-- c -->  \n'.repeat(60)}<x>`],
  ['DOCTYPEs with spaces before their end', `${'<!DOCTYPE a [ ]   >'.repeat(40)}<OFC>`],
  ['a DOCTYPE never closed', `<!DOCTYPE ${' '.repeat(3000)}[${'<!---->'.repeat(50)}`],
  ['comments that never close', '<!-- <!-- '.repeat(300)],
  ['declarations in a row', `${'<?xml ?>'.repeat(200)}<OFX>`],
];

describe('uploads whose start is made to backtrack', () => {
  it.each(SHAPES)('%s: answered, with the server answering throughout', async (_label, file) => {
    const { bytes, contentType } = await encodedForm(
      server.url,
      file,
      { account: 'Checking', dryRun: 'true' },
      'attack.csv',
    );
    const { value, longestTurnCpuMs, probes } = await whileProbingHealth(server.url, () =>
      rawRequest(server.url, 'POST', '/api/upload', { token: user.token, body: bytes, contentType }),
    );
    expect(value.status).toBeLessThan(500);
    expect(probes).toBeGreaterThan(0);
    expect(longestTurnCpuMs).toBeLessThan(LOOP_TURN_BOUND_CPU_MS);
  });

  it('an OFX file after comments and a DOCTYPE is still told from its start', () => {
    expect(detectFormat('<?xml version="1.0"?>\n<!-- bank -->\n<!DOCTYPE ofx [ <!ENTITY x "y"> ]>\n<OFX>')).toBe('ofx');
    expect(detectFormat('<!-- a --><?OFX OFXHEADER="200"?>')).toBe('ofx');
    expect(detectFormat('<!-- a --><?OFXA?>')).not.toBe('ofx');
    expect(detectFormat('<!-- never closed <OFX>')).not.toBe('ofx');
    expect(detectFormat('Date,Memo\n2024-01-01,<OFX>')).toBe('csv');
  });
});

describe('telling the format is linear in the file start (fuzz)', () => {
  const piece = fc.constantFrom(
    '<!--',
    '-->',
    '<!---->',
    '<!DOCTYPE',
    '<!DOCTYPE a[]>',
    '[',
    ']',
    '>',
    '<',
    ' ',
    '\n',
    '<?xml',
    '?>',
    '<OFX>',
    '<?OFX',
    'a',
  );
  it('any mix of prolog pieces, repeated up to the 4 KB that are looked at', () => {
    fc.assert(
      fc.property(fc.array(piece, { minLength: 1, maxLength: 20 }), fc.integer({ min: 1, max: 400 }), (pieces, n) => {
        const text = pieces.join('').repeat(n);
        const { value, cpuMs } = cpuTimeOf(() => detectFormat(text));
        expect(['csv', 'ofx', 'qif', 'camt053', 'xml']).toContain(value);
        // Linear: a few µs a character at most; backtracking on these shapes takes seconds.
        expect(cpuMs, `${text.length} characters took ${cpuMs.toFixed(1)} ms`).toBeLessThan(50);
      }),
      { numRuns: 300 },
    );
  });
});
