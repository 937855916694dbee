// How the server's TypeScript is bundled, shared by `npm run build:server` (scripts/build-server.mjs) and the
// test helper that bundles entry points for server processes in tests (tests/helpers/process.ts), so a test runs
// the server the way production does.
//
// CommonJS: the packages are CommonJS, and an ES module that loads them makes Node.js scan every one for its
// exports first; a CommonJS bundle requires them directly, which starts the server in less CPU time
// (bench/startup.bench.ts). Packages stay external (installed with `npm ci --omit=dev` in production); our own
// TypeScript is bundled. Dynamic import() stays lazy: of our own modules, esbuild runs the module's code on first
// import; of a package, it becomes a require() at that point (`dynamic-import: false`; a real import() of a
// CommonJS package would go through the ES-module loader and its export scan again).
/** @type {import('esbuild').BuildOptions} */
export const serverBundleOptions = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  packages: 'external',
  supported: { 'dynamic-import': false },
  logLevel: 'warning',
};

/** Worker threads' entry points, bundled beside the server (their file names are what the server looks for). */
export const workerEntryPoints = { 'read-worker': 'src/server/db/read-worker/thread.ts' };
