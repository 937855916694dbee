import module from 'node:module';

/**
 * Node.js 22.1+ keeps the compiled code of the modules it loads in a cache on disk (the
 * system's temporary folder), so later starts skip most compiling; on Node.js 20 this does
 * nothing. Imported first by main.ts, so it runs before any package is loaded.
 */
const withCache = module as { enableCompileCache?: () => unknown };
withCache.enableCompileCache?.();
