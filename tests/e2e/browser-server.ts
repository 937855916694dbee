import type { TestProject } from 'vitest/node';
import { launchBrowserServer } from './chromium';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the e2e files connect to the one Chromium of the run (playwright's `chromium.connect`). */
    chromiumWsEndpoint: string;
  }
}

/**
 * Global setup of the e2e project: launches Chromium once for every e2e file (a launch costs about a CPU-second
 * of browser start-up; each file connects and opens its own contexts, so no file sees another's storage), and
 * closes it after the run.
 */
export default async function setup(project: TestProject) {
  const server = await launchBrowserServer();
  project.provide('chromiumWsEndpoint', server.wsEndpoint());
  return async () => {
    await server.close();
  };
}
