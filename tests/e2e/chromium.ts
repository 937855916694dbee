import { existsSync } from 'node:fs';
import { chromium, type BrowserServer, type LaunchOptions } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium headless, without any of its calls home. */
export function chromiumLaunchOptions(): LaunchOptions {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: install it with apt-get install -y chromium (see .ci/run)`);
  }
  return {
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  };
}

/** Chromium as a server that test files connect to (see browser-server.ts). */
export function launchBrowserServer(): Promise<BrowserServer> {
  return chromium.launchServer(chromiumLaunchOptions());
}
