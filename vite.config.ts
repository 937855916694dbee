import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { precompressDir } from './scripts/precompress';

const outDir = path.resolve(import.meta.dirname, 'dist/client');

/** After a production build, a .br and a .gz copy of every text file (served with `preCompressed`). */
function precompress(): Plugin {
  return {
    name: 'budget-tracker:precompress',
    apply: 'build',
    closeBundle() {
      precompressDir(outDir);
    },
  };
}

// The React app lives in src/client and builds into dist/client, which the
// Fastify server serves. `npm run dev` proxies API calls to a local server.
export default defineConfig({
  root: path.resolve(import.meta.dirname, 'src/client'),
  plugins: [react(), precompress()],
  build: {
    outDir,
    emptyOutDir: true,
    // No source maps in the production bundle (the server would otherwise publish the source).
    sourcemap: false,
  },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      '/trpc': 'http://localhost:3000',
    },
  },
});
