import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pipeline, Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

/**
 * Text answers (JSON of the REST and tRPC doors, HTML, JS, CSS, SVG) leave compressed with
 * brotli or gzip, whichever the client prefers. CSV downloads are left as they are (they stream),
 * and request bodies are never decompressed (the body limits keep their meaning). The built
 * client's files are compressed once at build time and served as they are by the static plugin
 * (`preCompressed`); the rest is one onSend hook here.
 *
 * Large answers (LARGE_ANSWER_BYTES or more, such as a year's overview) are compressed at the
 * fastest levels (brotli quality 1, gzip level 1), from THREAD_POOL_ANSWER_BYTES on in one pass on
 * libuv's thread pool, so the main thread waits for none of it: docs/performance.md tells what
 * this buys.
 */
export const COMPRESSIBLE = /^(application\/(json|javascript)|text\/(html|css|javascript)|image\/svg\+xml)\b/;

/** From this size on, a text answer is compressed on the thread pool at the fastest levels (fastCompress). */
export const LARGE_ANSWER_BYTES = 128 * 1024;

const ENCODINGS = ['br', 'gzip'] as const;
export type Encoding = (typeof ENCODINGS)[number];

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** From this size on, fastCompress runs on the thread pool; below it, on the request's turn. */
export const THREAD_POOL_ANSWER_BYTES = 1024 * 1024;

function fastOptions(encoding: Encoding, body: Buffer): zlib.ZlibOptions | zlib.BrotliOptions {
  if (encoding === 'gzip') return { level: 1 };
  return {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 1,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  };
}

/**
 * The fastest levels. Under THREAD_POOL_ANSWER_BYTES at once on this turn: for a few hundred
 * kilobytes the hand-over to another thread costs about as much as compressing.
 */
export function fastCompress(encoding: Encoding, body: Buffer): Buffer | Promise<Buffer> {
  const options = fastOptions(encoding, body);
  if (body.length < THREAD_POOL_ANSWER_BYTES)
    return encoding === 'gzip' ? zlib.gzipSync(body, options) : zlib.brotliCompressSync(body, options);
  return encoding === 'gzip' ? gzip(body, options) : brotli(body, options);
}

/** The encoding a request takes (x-gzip and `*` read as gzip; `x-no-compression` takes none), or null. */
function acceptedEncoding(request: FastifyRequest): Encoding | null {
  const header = request.headers['accept-encoding'];
  if (header === undefined || request.headers['x-no-compression'] !== undefined) return null;
  const found = negotiate(header.toLowerCase().replace(/\bx-gzip\b|\*/g, 'gzip'), [...ENCODINGS]);
  return found === 'br' || found === 'gzip' ? found : null;
}

/**
 * A fetch Response (tRPC answers with one): its status and headers moved onto the reply, and its
 * body as bytes when it is JSON the request did not ask to stream (tRPC's `trpc-accept:
 * application/jsonl`), else as the stream it is (subscriptions are text/event-stream).
 */
export async function responseBody(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: Response,
): Promise<Buffer | ReadableStream | null> {
  reply.status(payload.status);
  payload.headers.forEach((value, name) => {
    if (name !== 'content-length') reply.header(name, value);
  });
  if (payload.body === null) return null;
  if (
    request.headers['trpc-accept'] !== undefined ||
    !/^application\/json\b/.test(payload.headers.get('content-type') ?? '')
  )
    return payload.body;
  return Buffer.from(await payload.arrayBuffer());
}

/**
 * The compressed forms of answers sent again and again as the same bytes (kept answers, RawJson's `kept`), by
 * encoding; they go when the bytes do.
 */
const keptForms = new WeakMap<Buffer, Partial<Record<Encoding, Buffer>>>();

/** Marks bytes that are never changed and are sent again: each encoding's compressed form is then made once. */
export function keepCompressedForms(bytes: Buffer): void {
  if (!keptForms.has(bytes)) keptForms.set(bytes, {});
}

/** Answers under this many bytes go as they are: compressing them saves less than it costs. */
const SMALL_ANSWER_BYTES = 1024;

/** Compression for answers under LARGE_ANSWER_BYTES, on the request's turn (brotli 4, gzip 6). */
function compressSmall(encoding: Encoding, body: Buffer): Buffer {
  if (encoding === 'gzip') return zlib.gzipSync(body);
  return zlib.brotliCompressSync(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
}

function compressingStream(encoding: Encoding): zlib.Gzip | zlib.BrotliCompress {
  if (encoding === 'gzip') return zlib.createGzip();
  return zlib.createBrotliCompress({
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    },
  });
}

/** Whether an answer with these headers may be compressed: a text type, not yet encoded, not a range. */
function compressibleReply(reply: FastifyReply): boolean {
  if (reply.statusCode === 204 || reply.statusCode === 206 || reply.statusCode === 304) return false;
  if (reply.getHeader('content-range') !== undefined) return false;
  const encoded = reply.getHeader('content-encoding');
  if (encoded !== undefined && encoded !== 'identity') return false;
  return COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? 'application/json'));
}

function markEncoded(reply: FastifyReply, encoding: Encoding): void {
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', 'accept-encoding');
  else if (!/\baccept-encoding\b/i.test(String(vary))) reply.header('vary', `${String(vary)}, accept-encoding`);
  reply.header('content-encoding', encoding);
}

/** A payload Fastify streams: a Node.js stream or a web ReadableStream (a fetch Response's body). */
function asStream(payload: unknown): Readable | null {
  if (payload instanceof Readable) return payload;
  if (payload instanceof ReadableStream) return Readable.fromWeb(payload as NodeReadableStream<Uint8Array>);
  return null;
}

/**
 * Every compressible answer leaves compressed with the encoding the client prefers: JSON and
 * text bytes under SMALL_ANSWER_BYTES as they are, up to LARGE_ANSWER_BYTES at once on this
 * turn, larger in one pass on the thread pool, and streams (tRPC's streamed answers, a static
 * file the build did not precompress) through a compressing stream. Files the static plugin
 * sends precompressed already carry their content-encoding and go as they are.
 */
async function compressAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  const encoding = acceptedEncoding(request);
  if (encoding === null || request.method === 'HEAD') return payload;
  // tRPC's answers (fetch Responses) are compressed whatever their size, as they were when the
  // plugin streamed them; Fastify's own small answers are not worth it.
  const minimum = payload instanceof Response ? 0 : SMALL_ANSWER_BYTES;
  if (payload instanceof Response) payload = await responseBody(request, reply, payload);
  if (payload === null || payload === undefined || !compressibleReply(reply)) return payload;
  if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
    if (payload.length < minimum) return payload;
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    const forms = keptForms.get(body);
    const compressed =
      forms?.[encoding] ??
      (body.length < LARGE_ANSWER_BYTES ? compressSmall(encoding, body) : await fastCompress(encoding, body));
    if (forms) forms[encoding] = compressed;
    markEncoded(reply, encoding);
    reply.header('content-length', compressed.length);
    return compressed;
  }
  const stream = asStream(payload);
  if (stream === null) return payload;
  markEncoded(reply, encoding);
  reply.removeHeader('content-length');
  const compressing = compressingStream(encoding);
  // An error on either side ends both; Fastify sees the compressing stream fail and closes the answer.
  pipeline(stream, compressing, () => undefined);
  return compressing;
}

export function registerCompression(app: FastifyInstance): void {
  app.addHook('onSend', compressAnswer);
}
