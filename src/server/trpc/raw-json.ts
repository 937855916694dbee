import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { responseBody } from '../http/compression';

/**
 * JSON already written by the database (RawJsonBytes) inside a tRPC answer. tRPC stringifies what
 * a procedure returns, so a procedure holding many megabytes of the database's JSON would parse
 * it into objects only for tRPC to write the same text again. Instead the procedure returns a
 * placeholder string where the JSON goes, and this request's answer gets the bytes in its place
 * (spliceRawJson, an onSend hook before compression): the same bytes tRPC would have written.
 * A placeholder is unguessable (16 random bytes per request) and never leaves the server. Answers
 * streamed as tRPC's JSON lines (`trpc-accept`) get no placeholder: the procedure answers objects.
 */
interface RawJsonSlots {
  /** The placeholders' common start, as JSON.stringify writes it (after the opening quote). */
  prefix: string;
  parts: (readonly Buffer[])[];
}

const slots = new WeakMap<FastifyRequest, RawJsonSlots>();

/** A stand-in for `chunks` (JSON bytes) in the tRPC answer to `request`, or null when its answer is streamed. */
export function rawJsonPlaceholder(request: FastifyRequest, chunks: readonly Buffer[]): string | null {
  if (request.headers['trpc-accept'] !== undefined) return null;
  let found = slots.get(request);
  if (found === undefined)
    slots.set(request, (found = { prefix: `bt-raw-json:${randomBytes(16).toString('hex')}:`, parts: [] }));
  found.parts.push(chunks);
  return `${found.prefix}${found.parts.length - 1}`;
}

const QUOTE = 0x22;

/** `body` (a tRPC answer's JSON) with each quoted placeholder of `request` replaced by its JSON bytes. */
export function spliceRawJson(request: FastifyRequest, body: Buffer): Buffer {
  const found = slots.get(request);
  if (found === undefined) return body;
  slots.delete(request);
  const open = Buffer.from(`"${found.prefix}`);
  const pieces: Buffer[] = [];
  let from = 0;
  for (let at = body.indexOf(open); at !== -1; at = body.indexOf(open, from)) {
    const end = body.indexOf(QUOTE, at + open.length);
    const part = found.parts[Number(body.toString('latin1', at + open.length, end))];
    if (end === -1 || part === undefined) break;
    pieces.push(body.subarray(from, at), ...part);
    from = end + 1;
  }
  if (from === 0) return body;
  pieces.push(body.subarray(from));
  return Buffer.concat(pieces);
}

/** A tRPC answer (a fetch Response) holding placeholders, as the bytes with their JSON in place. */
async function spliceAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if (!(payload instanceof Response) || !slots.has(request)) return payload;
  const body = await responseBody(request, reply, payload);
  return Buffer.isBuffer(body) ? spliceRawJson(request, body) : body;
}

/** Registers the hook; before registerCompression, so the answer is compressed with its JSON in place. */
export function registerRawJsonSplice(app: FastifyInstance): void {
  app.addHook('onSend', spliceAnswer);
}
