// Writes the OpenAPI document the server serves at /api/openapi.json to a file (default
// dist/openapi.json), for `npm run lint:openapi` and for client generators. Bundled into
// dist/server/openapi.js by scripts/build-server.mjs, so it documents the built app.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openApiDocument } from '../src/server/http/openapi';

const target = process.argv[2] ?? 'dist/openapi.json';
mkdirSync(path.dirname(target), { recursive: true });
writeFileSync(target, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
console.log(`wrote ${target}`);
