import { describe, expect, it } from 'vitest';
import { limiter } from '../../src/server/common/limiter';

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('limiter', () => {
  it.each([1, 2, 3])(
    'runs at most %i tasks at once, the rest in arrival order, whether tasks succeed or fail',
    async (limit) => {
      const run = limiter(limit);
      const gates = Array.from({ length: 7 }, deferred);
      const started: number[] = [];
      let active = 0;
      let peak = 0;
      const results = gates.map((gate, i) =>
        run(async () => {
          started.push(i);
          peak = Math.max(peak, ++active);
          try {
            await gate.promise;
            return i;
          } finally {
            active--;
          }
        }).catch((error: unknown) => (error as Error).message),
      );
      await settle();
      expect(started).toEqual(Array.from({ length: limit }, (_, i) => i));
      for (let i = 0; i < gates.length; i++) {
        if (i % 3 === 1) gates[i].reject(new Error(`failed ${i}`));
        else gates[i].resolve();
        await settle();
      }
      expect(await Promise.all(results)).toEqual(gates.map((_, i) => (i % 3 === 1 ? `failed ${i}` : i)));
      expect(started).toEqual([0, 1, 2, 3, 4, 5, 6]);
      expect(peak).toBe(limit);
    },
  );
});
