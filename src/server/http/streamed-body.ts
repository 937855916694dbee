import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../shared/errors';

/**
 * A JSON body too large to parse in one call (a restore of tens of megabytes) is handed to its route's handler
 * unread, as the request's stream, and read as it arrives (see RestRoute.streamsBody). Routes registered on `app`
 * (an encapsulated context holding only such routes) take JSON this way; every other route keeps Fastify's parser.
 */
export function takeJsonAsStream(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', (_request, payload, done) => {
    done(null, payload);
  });
}

/**
 * The request's body as it arrives, at most `limitBytes`: beyond that (by its Content-Length, or by the bytes
 * once they pass it) a 413, after which the connection is closed rather than the rest read.
 */
export async function* streamedBody(
  request: FastifyRequest,
  reply: FastifyReply,
  limitBytes: number,
): AsyncGenerator<Uint8Array> {
  const source = request.body;
  if (!(source instanceof Readable)) throw new AppError('BAD_REQUEST', 'Request body is required: send a JSON object');
  const tooLarge = () => {
    reply.header('connection', 'close');
    return new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large');
  };
  if (Number(request.headers['content-length']) > limitBytes) throw tooLarge();
  let bytes = 0;
  // Left early (a refusal), the stream stays open so the answer can still be sent on its connection.
  for await (const chunk of source.iterator({ destroyOnReturn: false }) as AsyncIterable<unknown>) {
    const data = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    bytes += data.byteLength;
    if (bytes > limitBytes) throw tooLarge();
    yield data;
  }
}
