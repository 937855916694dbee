import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileRulePattern } from '../../src/shared/rules';
import { foldText } from '../../src/shared/text/fold';
import { data, ok, signUp, type ApiUser } from '../helpers/api';
import { cpuTimeOf } from '../helpers/loop-turns';
import { startServer, type TestServer } from '../helpers/server';
import { LOOP_TURN_BOUND_CPU_MS, rawRequest, whileProbingHealth } from '../helpers/stall-watch';

/**
 * Attacks with rule patterns: shapes that make a backtracking engine take exponential or high polynomial time
 * are either refused with 400 or run in time linear in the text, over REST, tRPC and restore, so counting and
 * applying rules over adversarial descriptions never holds the event loop; what the linear-time engine cannot
 * express (backreferences, lookarounds) is refused naming the construct.
 */
let server: TestServer;
let user: ApiUser;

/** Descriptions a backtracking engine chokes on: long runs of one letter, then a letter no pattern wants. */
const HOSTILE_DESCRIPTIONS = ['a'.repeat(12), `${'a'.repeat(999)}!`, `${'ab'.repeat(499)}c`, `${'a '.repeat(499)}x`];

beforeAll(async () => {
  server = await startServer();
  user = await signUp(server.url);
  ok(await user.post('/api/accounts', { name: 'Checking', type: 'checking' }));
  for (const description of HOSTILE_DESCRIPTIONS)
    ok(
      await user.post('/api/transactions', { account: 'Checking', postDate: '2024-03-01', description, amount: -100 }),
    );
}, 60_000);

afterAll(async () => {
  await server.close();
});

const EXPONENTIAL_SHAPES: [string, string][] = [
  ['bounded repeats twenty times, then b', `${'a{0,40}'.repeat(20)}b`],
  ['any character, bounded, repeated, then !', `${'.{0,9}'.repeat(20)}!`],
  ['a repeated optional alternation of equals', `${'(a|a)?'.repeat(25)}b`],
  ['sixty optionals then sixty letters', `${'a?'.repeat(60)}${'a'.repeat(60)}`],
  ['a nested quantifier', '(a+)+$'],
  ['overlapping alternation under a star', '(a|aa)*b'],
  ['a repeated group of star and letter', '(.*a){12}x'],
  ['words and optional spaces repeated', '(\\w+\\s?)*$'],
  ['three nested stars', '((a*)*)*b'],
  ['two stars then b', 'a*a*b'],
];

const condition = (value: string) => ({ field: 'description', op: 'matches', value });

describe('patterns that backtrack exponentially elsewhere', () => {
  it.each(EXPONENTIAL_SHAPES)(
    '%s: saved or refused with 400, and counted over hostile rows with the server answering',
    async (_label, pattern) => {
      const saved = await user.post('/api/rules', {
        name: 'shape',
        conditions: [condition(pattern)],
        actions: { category: 'Shapes' },
        createCategory: true,
      });
      expect([201, 400]).toContain(saved.status);
      if (saved.status === 400) expect(saved.body.error).toMatch(/conditions\.0\.value: /);
      const body = JSON.stringify({ conditions: [condition(pattern)] });
      const { value: counted, longestTurnCpuMs } = await whileProbingHealth(server.url, () =>
        rawRequest(server.url, 'POST', '/api/rules/count', { token: user.token, body }),
      );
      expect(counted.status).toBe(saved.status === 201 ? 200 : 400);
      expect(longestTurnCpuMs).toBeLessThan(LOOP_TURN_BOUND_CPU_MS);
      if (saved.status === 201) ok(await user.del(`/api/rules/${saved.body.id as number}`));
    },
  );

  it('fifty rules of a*a*b over a 1,000-character row: a dry run and a real apply keep the server answering', async () => {
    for (let i = 0; i < 50; i += 1)
      ok(
        await user.post('/api/rules', {
          name: `stars ${i}`,
          conditions: [condition(`a*a*${'b'.repeat((i % 5) + 1)}`)],
          actions: { category: `Stars ${i}` },
          createCategory: true,
        }),
      );
    for (const dryRun of [true, false]) {
      const body = JSON.stringify({ dryRun });
      const { value, longestTurnCpuMs } = await whileProbingHealth(server.url, () =>
        rawRequest(server.url, 'POST', '/api/rules/apply', { token: user.token, body }),
      );
      expect(value.status).toBe(200);
      expect(longestTurnCpuMs).toBeLessThan(LOOP_TURN_BOUND_CPU_MS);
    }
    const { value: viaTrpc, longestTurnCpuMs } = await whileProbingHealth(server.url, () =>
      user.trpc.rules.applyToTransactions.mutate({ dryRun: true }),
    );
    expect(data(viaTrpc).dryRun).toBe(true);
    expect(longestTurnCpuMs).toBeLessThan(LOOP_TURN_BOUND_CPU_MS);
  });
});

describe('constructs the linear-time engine cannot express', () => {
  it.each([
    ['(a)\\1', /backreference \(\\1\)/],
    ['(?<x>a)\\k<x>', /named backreference/],
    ['a(?=b)', /lookahead/],
    ['a(?!b)', /negative lookahead/],
    ['(?<=a)b', /lookbehind/],
    ['(?<!a)b', /negative lookbehind/],
  ])('%s is refused with 400 naming it, over REST, tRPC and restore, and nothing is saved', async (pattern, named) => {
    const victim = await signUp(server.url);
    const rule = { name: 'bad', conditions: [condition(pattern)], actions: { category: 'Bad' }, createCategory: true };
    const rest = await victim.post('/api/rules', rule);
    expect(rest.status).toBe(400);
    expect(rest.body.error).toMatch(named);
    const count = await victim.post('/api/rules/count', { conditions: [condition(pattern)] });
    expect(count.status).toBe(400);
    const viaTrpc = await victim.trpc.rules.create.mutate(rule);
    expect(viaTrpc.error?.data.httpStatus).toBe(400);
    expect(viaTrpc.error?.message).toMatch(named);
    const document = ok(await victim.get('/api/export'));
    const restore = await victim.post('/api/import', {
      ...document,
      rules: [
        { id: 1, priority: 100, enabled: true, name: rule.name, conditions: rule.conditions, actions: rule.actions },
      ],
    });
    expect(restore.status).toBe(400);
    expect(restore.body.error).toMatch(named);
    expect(ok(await victim.get('/api/rules'))).toEqual([]);
  });
});

describe('matching time grows linearly with the text, whatever the pattern (fuzz)', () => {
  /** Pieces that, combined, make the shapes behind catastrophic backtracking. */
  const atom = fc.constantFrom('a', 'b', '.', '\\w', '\\s', '[ab]', '[^b]', 'a|a', 'a|aa', 'a|b', '\\d');
  const quantifier = fc.constantFrom('', '?', '*', '+', '{0,5}', '{1,3}', '{2,}', '*?', '+?');
  const piece: fc.Arbitrary<string> = fc.letrec<{ piece: string }>((tie) => ({
    piece: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.tuple(atom, quantifier).map(([a, q]) => (a.includes('|') ? `(?:${a})${q}` : `${a}${q}`)),
      fc
        .tuple(fc.array(tie('piece'), { minLength: 1, maxLength: 4 }), quantifier)
        .map(([inner, q]) => `(${inner.join('')})${q}`),
    ),
  })).piece;
  const pattern = fc
    .tuple(fc.array(piece, { minLength: 1, maxLength: 8 }), fc.constantFrom('', '$', 'b', '!', 'x$'))
    .map(([pieces, end]) => `${pieces.join('')}${end}`)
    .filter((p) => p.length <= 200);
  const text = fc
    .tuple(fc.constantFrom('a', 'ab', 'a ', 'aab', 'ba'), fc.constantFrom('', '!', 'c', ' x'))
    .map(([unit, tail]) => foldText(`${unit.repeat(Math.ceil(1000 / unit.length)).slice(0, 998)}${tail}`));
  /**
   * CPU per character of text, with room: the largest compiled programs cost a few µs a character; a
   * backtracking engine on these shapes takes seconds on a thousand characters.
   */
  const CPU_MS_PER_CHARACTER = 0.05;

  it('generated patterns over hostile texts of 1,000 characters', () => {
    let compiled = 0;
    fc.assert(
      fc.property(pattern, text, (source, subject) => {
        const result = compileRulePattern(source);
        if (!result.ok) return;
        compiled += 1;
        // The first run compiles the engine's own caches for this pattern.
        result.pattern.test(subject.slice(0, 20));
        const { cpuMs } = cpuTimeOf(() => result.pattern.test(subject));
        expect(cpuMs, `${source} took ${cpuMs.toFixed(1)} ms of CPU on ${subject.length} characters`).toBeLessThan(
          20 + subject.length * CPU_MS_PER_CHARACTER,
        );
      }),
      { numRuns: 300 },
    );
    expect(compiled).toBeGreaterThan(100);
  }, 120_000);
});
