import { z } from 'zod';

/** A camelCase field's REST query name: startDate -> start_date. */
export function wireName(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * A REST query translated into a shared input schema: `wire` lists the query parameters by
 * their wire names (validated as text, and documented in OpenAPI), `toInput` maps them onto the
 * schema's fields, and the schema's complaints come back under the wire names
 * ("end_date: Start date must not be after end date").
 */
export function wireQuery<W extends z.ZodRawShape, S extends z.ZodType>(
  wire: W,
  schema: S,
  toInput: (query: z.output<z.ZodObject<W>>) => unknown,
) {
  return z.object(wire).transform((query, ctx): z.output<S> => {
    const parsed = schema.safeParse(toInput(query));
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) {
      const [head, ...rest] = issue.path;
      const path = head === undefined ? [] : [typeof head === 'string' ? wireName(head) : head, ...rest];
      ctx.addIssue({ code: 'custom', message: issue.message, path: path });
    }
    return z.NEVER;
  });
}

/** Query text of a whole number -> the number; anything else -> NaN, so the schema names the field. */
export function wholeNumberText(text: string | undefined): number | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  return /^\s*-?\d+\s*$/.test(text) ? Number(text) : Number.NaN;
}

/** Blank query text counts as absent. */
export function present(text: string | undefined): string | undefined {
  return text === undefined || text.trim() === '' ? undefined : text.trim();
}
