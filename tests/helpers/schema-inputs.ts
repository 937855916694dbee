import fc from 'fast-check';
import { z } from 'zod';

/**
 * Inputs generated from the zod schemas the routes validate with: the schema is turned into
 * its JSON Schema (the same one /api/openapi.json shows) and from that into fast-check
 * arbitraries. `validInput` gives a plausible valid value; `hostileInput` mixes valid values
 * with control characters, huge and empty values and wrong types, field by field.
 */
export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  default?: unknown;
  [key: string]: unknown;
};

export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

const CONTROL = ['\u0000', '\u0001', '\u0007', '\u0008', '\u001b', '\u007f', '\u0085', '\u009b'];

/** A valid-looking string for a field, from its name and constraints. */
function validString(name: string, s: JsonSchema): string {
  if (s.enum) return String(s.enum[0]);
  if (s.pattern === '^\\d{4}-\\d{2}-\\d{2}$' || /date/i.test(name))
    return /end/i.test(name) ? '2024-12-31' : '2024-01-01';
  if (s.pattern && /#/.test(s.pattern)) return '#2196F3';
  if (name === 'month') return '2024-01';
  if (/^(base|quote|currency|homeCurrency|originalCurrency)$/.test(name)) return name === 'quote' ? 'GBP' : 'EUR';
  if (name === 'rate') return '0.8567';
  if (/amount/i.test(name)) return '12.50';
  if (/apiToken/.test(name)) return 'btapi_Q2hlY2tpbmcgdGhlIGVudHJvcHkgb2YgdGhpcyB0b2tlbg';
  if (/password/i.test(name)) return 'a-long-enough-password';
  const min = s.minLength ?? 1;
  const base = `${name || 'text'}-value`;
  return base.length >= min ? base.slice(0, s.maxLength ?? base.length) : base.padEnd(min, 'x');
}

function branches(s: JsonSchema): JsonSchema[] {
  return s.anyOf ?? s.oneOf ?? [s];
}

function typeOf(s: JsonSchema): string | undefined {
  if (s.const !== undefined) return 'const';
  if (s.enum) return 'enum';
  return Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
}

/** A plausible valid value (deterministic). */
export function validInput(s: JsonSchema, name = ''): unknown {
  const nonNull = branches(s).find((b) => b.type !== 'null') ?? s;
  switch (typeOf(nonNull)) {
    case 'enum':
      return nonNull.enum![0];
    case 'const':
      return nonNull.const;
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [key, prop] of Object.entries(nonNull.properties ?? {})) {
        if ((nonNull.required ?? []).includes(key) || key === 'categories') out[key] = validInput(prop, key);
      }
      return out;
    }
    case 'array': {
      const count = Math.max(nonNull.minItems ?? 0, 1);
      return Array.from({ length: count }, () => validInput(nonNull.items ?? {}, name));
    }
    case 'string':
      return validString(name, nonNull);
    case 'integer':
      return Math.max(1, Math.ceil(nonNull.minimum ?? nonNull.exclusiveMinimum ?? 1));
    case 'number':
      return /amount|balance/i.test(name) ? -1250 : 1;
    case 'boolean':
      return true;
    default:
      return validString(name, nonNull);
  }
}

/** Every path to a string value in a schema (array items as index 0). */
export function stringPaths(s: JsonSchema, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [];
  for (const branch of branches(s)) {
    const type = typeOf(branch);
    if (type === 'string') out.push(prefix);
    else if (type === 'object')
      for (const [key, prop] of Object.entries(branch.properties ?? {}))
        out.push(...stringPaths(prop, [...prefix, key]));
    else if (type === 'array' && branch.items) out.push(...stringPaths(branch.items, [...prefix, 0]));
  }
  const seen = new Set<string>();
  return out.filter((p) => (seen.has(JSON.stringify(p)) ? false : (seen.add(JSON.stringify(p)), true)));
}

/** Sets `value` at `path` inside a copy of `root`, creating objects and arrays on the way. */
export function setAt(root: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  const copy: any = Array.isArray(root)
    ? [...root]
    : typeof root === 'object' && root !== null
      ? { ...root }
      : typeof head === 'number'
        ? []
        : {};
  copy[head] = setAt(copy[head], rest, value);
  return copy;
}

const hostileString = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\t\n',
    '%00',
    '../../etc/passwd',
    "'; drop table user; --",
    '0',
    '-1',
    'null',
    '{}',
    '2024-02-30',
    '9999-99-99',
  ),
  fc.constantFrom(...CONTROL).map((c) => `x${c}y`),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('x'.repeat(256), 'y'.repeat(5000), '\u00e9'.repeat(1001)),
);
const hostileNumber = fc.oneof(
  fc.constantFrom(
    0,
    -0,
    1,
    -1,
    0.5,
    1e13,
    -1e13,
    1e13 + 1,
    -1e13 - 1,
    2 ** 53,
    -(2 ** 53),
    1e300,
    -1e300,
    Number.MAX_SAFE_INTEGER,
  ),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);
const wrongType = fc.constantFrom<unknown>(null, true, [], {}, 'text', 12, [null], { nested: { deeper: [1] } });

/** The largest list (as JSON) the inputs build to step one item over its limit. */
const MAX_OVER_LIMIT_BYTES = 4 * 1024 * 1024;

/** fast-check arbitrary for a value of the schema: mostly valid-shaped, often hostile. */
export function hostileInput(s: JsonSchema, name = '', depth = 0): fc.Arbitrary<unknown> {
  const nonNull = branches(s).find((b) => b.type !== 'null') ?? s;
  const valid = fc.constant(validInput(nonNull, name));
  const type = typeOf(nonNull);
  let shaped: fc.Arbitrary<unknown>;
  switch (type) {
    case 'enum':
      shaped = fc.oneof(fc.constantFrom(...nonNull.enum!), hostileString);
      break;
    case 'object': {
      const entries = Object.entries(nonNull.properties ?? {});
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, prop] of entries)
        record[key] = depth > 4 ? fc.constant(validInput(prop, key)) : hostileInput(prop, key, depth + 1);
      const required = (nonNull.required ?? []).filter((k) => k in record);
      shaped = fc.oneof(
        fc.record(record, { requiredKeys: required }),
        fc.record(record, { requiredKeys: [] }),
        fc.record(record, { requiredKeys: required }).map((o) => ({ ...(o as object), unexpectedField: 'x' })),
      );
      break;
    }
    case 'array': {
      const few = fc.array(
        depth > 4
          ? fc.constant(validInput(nonNull.items ?? {}, name))
          : hostileInput(nonNull.items ?? {}, name, depth + 1),
        { maxLength: 4 },
      );
      const limit = nonNull.maxItems ?? 1000;
      const itemBytes = JSON.stringify(validInput(nonNull.items ?? {}, name))?.length ?? 1;
      // One item over the limit, unless that list would be a body of many megabytes (a restore's million rows):
      // each run would then spend its time writing it, and the restore attack tests send such documents themselves.
      shaped =
        (limit + 1) * itemBytes > MAX_OVER_LIMIT_BYTES
          ? few
          : fc.oneof(few, fc.constant(Array.from({ length: limit + 1 }, () => validInput(nonNull.items ?? {}, name))));
      break;
    }
    case 'string':
      shaped = fc.oneof(
        { weight: 2, arbitrary: valid },
        { weight: 3, arbitrary: hostileString },
        nonNull.pattern ? fc.stringMatching(new RegExp(nonNull.pattern)) : fc.string(),
      );
      break;
    case 'integer':
    case 'number':
      shaped = fc.oneof(valid, hostileNumber, hostileString);
      break;
    case 'boolean':
      shaped = fc.oneof(fc.boolean(), hostileString);
      break;
    default:
      shaped = fc.oneof(valid, hostileString, hostileNumber);
  }
  return fc.oneof({ weight: 6, arbitrary: shaped }, { weight: 1, arbitrary: wrongType });
}
