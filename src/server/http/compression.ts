import compress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/**
 * Text answers (JSON of the REST and tRPC doors, HTML, JS, CSS, SVG) leave compressed with
 * brotli or gzip, whichever the client prefers. CSV downloads are left as they are (they stream
 * at full speed), and request bodies are never decompressed (the body limits keep their meaning).
 * The built client's files are compressed once at build time and served as they are by the
 * static plugin (`preCompressed`), so this only works on dynamic answers.
 * Register before the routes: the plugin attaches itself to each route as it is declared.
 */
export const COMPRESSIBLE = /^(application\/(json|javascript)|text\/(html|css|javascript)|image\/svg\+xml)\b/;

export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    customTypes: COMPRESSIBLE,
    globalDecompression: false,
  });
}
