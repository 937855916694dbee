import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinJsonRowBytes } from '../../src/server/db/sql';
import { jsonArrayOfRaw, jsonWithRawParts, RawJson } from '../../src/server/http/raw-json';

const raw = (value: unknown) => new RawJson(Buffer.from(JSON.stringify(value)));

describe('JSON already written', () => {
  it('joins rows written by the database into one array, rows without JSON left out', () => {
    expect(joinJsonRowBytes([]).toString()).toBe('[]');
    expect(joinJsonRowBytes([{ json: '{"a":1}' }, { json: null }, { json: '{"b":"é"}' }]).toString()).toBe(
      '[{"a":1},{"b":"é"}]',
    );
  });

  it('writes an object with parts already JSON exactly as JSON.stringify writes the whole', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (inner, other) => {
        const whole = { first: other, middle: inner, last: 'x' };
        const written = jsonWithRawParts([
          ['first', other],
          ['middle', raw(inner)],
          ['last', 'x'],
        ]);
        expect(written.bytes.toString()).toBe(JSON.stringify(whole));
      }),
    );
  });

  it('writes an array of parts already JSON', () => {
    expect(jsonArrayOfRaw([]).bytes.toString()).toBe('[]');
    expect(jsonArrayOfRaw([raw({ a: 1 }), raw([2, 'ü'])]).bytes.toString()).toBe('[{"a":1},[2,"ü"]]');
  });
});
