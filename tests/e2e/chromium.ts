import { existsSync } from 'node:fs';
import { chromium, type BrowserServer, type LaunchOptions } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium headless, without any of its calls home. */
export function chromiumLaunchOptions(): LaunchOptions {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: install it with apt-get install -y chromium (see .ci/run)`,
    );
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
      // Without site isolation a page keeps its renderer process across same-origin page.goto calls (with it, each
      // goto took a fresh renderer that compiled the bundle again).
      // It changes which process renders, not what is rendered; the tests' pages only ever load the app's origin.
      '--disable-site-isolation-trials',
    ],
  };
}

/** Chromium as a server that test files connect to (see browser-server.ts). */
export function launchBrowserServer(): Promise<BrowserServer> {
  return chromium.launchServer(chromiumLaunchOptions());
}
