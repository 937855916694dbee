import type { BuildOptions } from 'esbuild';

/** How the server's TypeScript is bundled (scripts/server-bundle-options.mjs). */
export declare const serverBundleOptions: BuildOptions;

/** The server's worker threads: output name -> entry point (scripts/server-bundle-options.mjs). */
export declare const workerEntryPoints: Record<string, string>;
