import { negotiate } from '@fastify/accept-negotiator';
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

/**
 * Text answers (JSON of the REST and tRPC doors, HTML, JS, CSS, SVG) leave compressed with
 * brotli or gzip, whichever the client prefers. CSV downloads are left as they are (they stream
 * at full speed), and request bodies are never decompressed (the body limits keep their meaning).
 * The built client's files are compressed once at build time and served as they are by the
 * static plugin (`preCompressed`), so this only works on dynamic answers.
 * Register before the routes: the plugin attaches itself to each route as it is declared.
 *
 * Large answers (LARGE_ANSWER_BYTES or more: a year's overview is ~7 MB of JSON) are compressed
 * here instead, in one pass on libuv's thread pool at the fastest levels (brotli quality 1, gzip
 * level 1): the plugin's brotli quality 4 in 16 KB stream chunks cost more CPU than the database
 * spent writing the JSON (same-run probe on 6.7 MB of transactions JSON: brotli 4 81 ms of CPU,
 * brotli 1 30 ms for 14% more bytes, gzip 1 22 ms), and the main thread waits for none of it.
 */
export const COMPRESSIBLE = /^(application\/(json|javascript)|text\/(html|css|javascript)|image\/svg\+xml)\b/;

/** From this size on, a text answer is compressed by compressLargeAnswer (below) rather than the plugin. */
export const LARGE_ANSWER_BYTES = 128 * 1024;

const ENCODINGS = ['br', 'gzip'] as const;
type Encoding = (typeof ENCODINGS)[number];

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

function fastCompress(encoding: Encoding, body: Buffer): Promise<Buffer> {
  if (encoding === 'gzip') return gzip(body, { level: 1 });
  return brotli(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 1,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
}

/** The encoding a request takes, as the plugin negotiates it (x-gzip and `*` read as gzip), or null. */
function acceptedEncoding(request: FastifyRequest): Encoding | null {
  const header = request.headers['accept-encoding'];
  if (header === undefined || request.headers['x-no-compression'] !== undefined) return null;
  const found = negotiate(header.toLowerCase().replace(/\bx-gzip\b|\*/g, 'gzip'), [...ENCODINGS]);
  return found === 'br' || found === 'gzip' ? found : null;
}

/**
 * A fetch Response tRPC answers with, as its bytes when they are large (status and headers moved
 * onto the reply) so they are compressed here; a smaller one goes on as a Response, as before.
 * Only JSON the request did not ask to stream (tRPC's `trpc-accept: application/jsonl`;
 * subscriptions are text/event-stream) is read.
 */
async function largeResponseBody(request: FastifyRequest, reply: FastifyReply, payload: Response): Promise<Buffer | Response> {
  if (request.headers['trpc-accept'] !== undefined || payload.bodyUsed || !/^application\/json\b/.test(payload.headers.get('content-type') ?? ''))
    return payload;
  const body = Buffer.from(await payload.arrayBuffer());
  if (body.length < LARGE_ANSWER_BYTES) return new Response(body, { status: payload.status, headers: payload.headers });
  reply.status(payload.status);
  payload.headers.forEach((value, name) => {
    if (name !== 'content-length') reply.header(name, value);
  });
  return body;
}

/** A text answer's bytes when it is large, compressible and not yet encoded. */
function largeBody(reply: FastifyReply, payload: unknown): Buffer | null {
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return null;
  if (payload.length < LARGE_ANSWER_BYTES) return null;
  if (reply.statusCode === 206 || reply.getHeader('content-range') !== undefined) return null;
  const encoded = reply.getHeader('content-encoding');
  if (encoded !== undefined && encoded !== 'identity') return null;
  if (!COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? 'application/json'))) return null;
  return typeof payload === 'string' ? Buffer.from(payload) : payload;
}

async function compressLargeAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  const encoding = acceptedEncoding(request);
  if (encoding === null) return payload;
  if (payload instanceof Response) payload = await largeResponseBody(request, reply, payload);
  const body = largeBody(reply, payload);
  if (body === null) return payload;
  const compressed = await fastCompress(encoding, body);
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', 'accept-encoding');
  else if (!/\baccept-encoding\b/i.test(String(vary))) reply.header('vary', `${String(vary)}, accept-encoding`);
  reply.header('content-encoding', encoding);
  reply.header('content-length', compressed.length);
  return compressed;
}

export async function registerCompression(app: FastifyInstance): Promise<void> {
  // An app-wide onSend hook runs before the plugin's, which passes on an answer already encoded.
  app.addHook('onSend', compressLargeAnswer);
  await app.register(compress, {
    encodings: [...ENCODINGS],
    customTypes: COMPRESSIBLE,
    globalDecompression: false,
  });
}
