import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The React app lives in src/client and builds into dist/client, which the
// Fastify server serves. `npm run dev` proxies API calls to a local server.
export default defineConfig({
  root: path.resolve(import.meta.dirname, 'src/client'),
  plugins: [react()],
  build: {
    outDir: path.resolve(import.meta.dirname, 'dist/client'),
    emptyOutDir: true,
    // No source maps in the production bundle (the server would otherwise publish the source).
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
  },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      '/trpc': 'http://localhost:3000',
    },
  },
});
