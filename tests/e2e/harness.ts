/**
 * The e2e harness, and its reset contract: what a browser test may assume, and what it must not.
 *
 * Per file (`useBrowserAndServer()`): one app server of the file's own, started before its tests on a fresh,
 * migrated, empty database (a temporary SQLite file) on port 0, serving the built client (`npm run build` first), and
 * a connection to the run's one Chromium. Both are closed after the file's tests. Files never share a server, a
 * database or a browser context, so files may run side by side.
 *
 * Per test, the database is NOT reset: the tests of a file run one after another on the same server and database.
 * So each test works as a user of its own: `signedInPage` registers a fresh user (a unique name) and seeds that
 * user's data through `open.before` and `trpcApi` before the page loads. A test must not assume the database is
 * empty, read another test's user or data, or depend on the order of tests. A test that needs other server settings
 * (`ALLOW_REGISTRATION`, `ACCESS_TOKEN_TTL`, ...) starts its own server with `startAppServer(env)` and closes it.
 *
 * Per test, the page IS reset (see `openPage`): the tests of a file take turns on one page of one shared browser
 * context, which keeps the renderer and its compiled bundle warm. When a session opens, its cookies are cleared, its
 * viewport and media (reduced motion unless asked otherwise, light scheme unless asked) are set, Playwright's
 * default timeouts are restored and the asked-for `storageState` is written. When it closes (its `close()`, also
 * run when the test ends), its listeners, its page and context routes and any other pages are removed, and the page
 * is parked on a blank page of the app's origin with local storage, session storage and cookies cleared. Not reset:
 * the HTTP cache and compiled code (the point of sharing). A test that installs a fake clock spends the context (the
 * next session gets a fresh one); other context options (e.g. `locale`) share another context; a second page while
 * the shared one is in use, or a `storageState` file path, gets a context of its own.
 *
 * A new e2e test:
 *
 *   const app = useBrowserAndServer();
 *   it('shows the seeded account', async () => {
 *     const { page } = await signedInPage(app.browser, app.server, 1400, 900, {}, {
 *       path: '/accounts',
 *       before: async (user) => {
 *         await trpcApi(app.server, user.accessToken).accounts.create.mutate({ name: 'Checking', type: 'checking' });
 *       },
 *     });
 *     await expect.poll(() => page.getByRole('link', { name: 'Checking' }).count()).toBe(1);
 *     await expectNoSeriousA11yViolations(page, 'accounts');
 *   });
 *
 * Wait for conditions (locators, `expect.poll`), never for time. Helpers shared by a screen's tests go in
 * `<screen>-screen.ts`. Run one file with `npm run build && VITEST_MAX_WORKERS=1 npx vitest run --project e2e
 * tests/e2e/<file>.test.ts`.
 */
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Download,
  type Page,
  type Route,
} from 'playwright-core';
import { afterAll, beforeAll, expect, inject, onTestFinished } from 'vitest';
import { sessionEntries } from '../../src/client/lib/session';
import { registerUser } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';
import { trpcDataClient, type AppDataClient } from '../helpers/trpc-client';
import { chromiumLaunchOptions } from './chromium';

export { CHROMIUM_PATH } from './chromium';
export const SCREENSHOT_DIR = path.resolve('tests/e2e/screenshots');

/**
 * A browser for one test file: a connection to the run's one Chromium when the e2e project's global setup
 * launched it (browser-server.ts), else (a file run outside that project) a Chromium of its own. Closing it
 * closes the file's contexts (and its own Chromium, if it launched one).
 */
export async function launchBrowser(): Promise<Browser> {
  const endpoint = inject('chromiumWsEndpoint');
  return endpoint ? chromium.connect(endpoint) : chromium.launch(chromiumLaunchOptions());
}

/** Starts the real server serving the built client (run `npm run build` first). */
export async function startAppServer(env: Record<string, string> = {}): Promise<TestServer> {
  if (!existsSync(path.resolve('dist/client/index.html'))) {
    throw new Error('dist/client is missing: run `npm run build` before the e2e tests');
  }
  return startServer({ CLIENT_DIR: path.resolve('dist/client'), ...env });
}

/**
 * One browser and one app server for a test file: started before its tests, closed after.
 * Read `browser` and `server` inside tests (they are set once beforeAll has run).
 */
export function useBrowserAndServer(env: Record<string, string> = {}): {
  readonly browser: Browser;
  readonly server: TestServer;
} {
  const app = {} as { browser: Browser; server: TestServer };
  beforeAll(async () => {
    [app.browser, app.server] = await Promise.all([launchBrowser(), startAppServer(env)]);
  });
  afterAll(async () => {
    await app.browser?.close();

    await app.server?.close();
  });
  return app;
}

/** Typed tRPC calls as a signed-in user (`api.accounts.create.mutate({...})`), answering the data (a refusal throws). */
export function trpcApi(server: TestServer, token: string): AppDataClient {
  return trpcDataClient(server.url, token);
}
export type TrpcApi = AppDataClient;

export interface Session {
  context: BrowserContext;
  page: Page;
  /** Errors the page threw or logged; a test can assert there were none. */
  errors: string[];
  /**
   * Ends the session: a page of the file's shared context is left blank, with no storage, cookies, routes or
   * listeners, for the next test; a context of its own is closed. Also runs when the test ends (it may run twice).
   */
  close: () => Promise<void>;
}

/**
 * Context options a reused page can take on itself (the viewport, media features, storage); any other option (e.g.
 * `locale`) is the context's own, so sessions asking for other such options share another context.
 */
const PER_PAGE_OPTIONS = new Set(['viewport', 'reducedMotion', 'colorScheme', 'storageState']);

/** A file's shared context and its one page, reused by the file's tests one after another. */
interface SharedPage {
  context: BrowserContext;
  page: Page;
  inUse: boolean;
  /** Set once a test installs a fake clock: it stays in the context's pages, so the context is not reused. */
  spent: boolean;
}
/** A browser's shared pages, by the context options of their context (JSON). */
const sharedPages = new WeakMap<Browser, Map<string, SharedPage>>();

/** A path the shared page parks on between tests: answered by the page's own route, never by the server. */
const PARKING_PATH = '/__e2e-parking__';

/**
 * Loads an empty document at `origin` (same site, so Chromium keeps the renderer and its compiled bundle). A page the
 * last test left parked there (releaseSharedPage) stays: it runs no app, and its storage was cleared after parking.
 */
async function park(page: Page, origin: string) {
  const url = `${origin}${PARKING_PATH}`;
  if (page.url() === url) return;
  const answer = (route: Route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>parked</title>' });
  await page.route(url, answer);
  try {
    await page.goto(url);
  } finally {
    await page.unroute(url, answer);
  }
}

async function sharedPage(browser: Browser, contextOptions: BrowserContextOptions): Promise<SharedPage | undefined> {
  const key = JSON.stringify(contextOptions);
  let byOptions = sharedPages.get(browser);
  if (!byOptions) sharedPages.set(browser, (byOptions = new Map()));
  let shared = byOptions.get(key);
  if (shared?.inUse) return undefined;
  if (!shared || shared.spent || shared.page.isClosed()) {
    if (shared && !shared.page.isClosed()) await shared.context.close();
    const context = await browser.newContext({ reducedMotion: 'reduce', ...contextOptions });
    shared = { context, page: await context.newPage(), inUse: false, spent: false };
    const spend = shared;
    const install = context.clock.install.bind(context.clock);
    context.clock.install = (options) => {
      spend.spent = true;
      return install(options);
    };
    byOptions.set(key, shared);
  }
  return shared;
}

/**
 * A page with its own storage and no cookies, collecting page errors; `options` e.g. `{ locale: 'de-DE' }`.
 * The page asks for reduced motion (the app then shows no fades, grows or ripples, see theme.ts), so clicks, axe and
 * screenshots need not wait for transitions; `{ reducedMotion: 'no-preference' }` keeps the animated path (motion.test.ts).
 *
 * The tests of a file take turns on one page of one shared context, reset between them as the contract at the top of
 * this file says, instead of a fresh context each: a fresh context costs a new renderer process that compiles the
 * whole bundle again with no code cache.
 */
export async function openPage(
  browser: Browser,
  width = 1400,
  height = 900,
  options: BrowserContextOptions = {},
): Promise<Session> {
  const viewport = { width, height };
  const contextOptions = Object.fromEntries(
    Object.entries(options).filter(([key]) => !PER_PAGE_OPTIONS.has(key)),
  ) as BrowserContextOptions;
  const shared = typeof options.storageState === 'string' ? undefined : await sharedPage(browser, contextOptions);
  let context: BrowserContext;
  let page: Page;
  if (shared) {
    shared.inUse = true;
    ({ context, page } = shared);
    await context.clearCookies();
    await page.setViewportSize(viewport);
    await page.emulateMedia({
      reducedMotion: options.reducedMotion ?? 'reduce',
      colorScheme: options.colorScheme ?? 'light',
    });
    page.setDefaultTimeout(DEFAULT_TIMEOUT);
    page.setDefaultNavigationTimeout(DEFAULT_TIMEOUT);
    const state = typeof options.storageState === 'string' ? undefined : options.storageState;
    for (const { origin, localStorage: entries } of state?.origins ?? []) {
      await park(page, origin);
      await page.evaluate((items) => {
        for (const { name, value } of items) localStorage.setItem(name, value);
      }, entries);
    }
    if (state?.cookies.length) await context.addCookies(state.cookies);
  } else {
    context = await browser.newContext({ reducedMotion: 'reduce', ...options, viewport });
    page = await context.newPage();
  }
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) errors.push(message.text());
  });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    if (!shared || shared.spent || page.isClosed()) {
      if (shared) shared.inUse = false;
      await context.close();
      return;
    }
    try {
      await releaseSharedPage(shared);
    } finally {
      shared.inUse = false;
    }
  };
  onTestFinished(close);
  return { context, page, errors, close };
}

/** Playwright's default for actions and navigations, restored on a reused page (a test may have changed it). */
const DEFAULT_TIMEOUT = 30_000;

/** Leaves the shared page blank at its origin with empty storage, no cookies, routes, listeners or other pages. */
async function releaseSharedPage({ context, page }: SharedPage) {
  page.removeAllListeners();
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await context.unrouteAll({ behavior: 'ignoreErrors' });
  for (const other of context.pages()) if (other !== page) await other.close();
  const url = new URL(page.url());
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    await park(page, url.origin);
    await page.evaluate(() => {
      localStorage.clear();
      sessionStorage.clear();
    });
  }
  await context.clearCookies();
}

/** Logs in through the login card and waits for the navigation bar. */
export async function loginViaUi(page: Page, baseUrl: string, username: string, password: string, pathName = '/') {
  await page.goto(`${baseUrl}${pathName}`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.getByText(`Welcome, ${username}`).first().waitFor();
}

/** Where signedInPage opens, and what it does for the new user before the page loads. */
export interface SignedInOpen {
  /** The path the page opens at (default `/`): one page load, not `/` and then the screen. */
  path?: string;
  /** Runs once the user is registered, before the page loads (e.g. seeding their data through trpcApi). */
  before?: (user: Awaited<ReturnType<typeof registerUser>>) => Promise<unknown>;
}

/**
 * Registers a user over the API and opens a page already signed in as them, at `open.path` (default `/`) with the
 * navigation bar shown: the context starts with the session the registration answered in its storage (what signing in
 * stores, see sessionEntries), so the app restores it on load as after any reload. Tests of signing in itself use
 * loginViaUi.
 */
export async function signedInPage(
  browser: Browser,
  server: TestServer,
  width = 1400,
  height = 900,
  options: BrowserContextOptions = {},
  open: SignedInOpen = {},
) {
  const user = await registerUser(server.url);
  await open.before?.(user);
  const storageState = {
    cookies: [],
    origins: [{ origin: new URL(server.url).origin, localStorage: sessionEntries(user) }],
  };
  const session = await openPage(browser, width, height, { ...options, storageState });
  await session.page.goto(`${server.url}${open.path ?? '/'}`);
  await session.page.getByText(`Welcome, ${user.user.username}`).first().waitFor();
  return { ...session, user };
}

/**
 * Waits until no finite CSS transition or animation is running (an alert still fading in has the contrast of
 * its half-transparent colours; spinners that loop forever are not waited for).
 */
/**
 * A download saved to a fresh temporary file, its path returned. The browser may be shared over a
 * connection (the e2e project's one Chromium), where `download.path()` is not available: `saveAs`
 * streams the file from the browser either way.
 */
export async function savedDownload(file: Download): Promise<string> {
  const target = path.join(mkdtempSync(path.join(os.tmpdir(), 'bt-download-')), file.suggestedFilename() || 'download');
  await file.saveAs(target);
  return target;
}

export async function transitionsSettled(page: Page) {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity),
  );
}

/**
 * Runs axe on the page, once transitions have settled, and fails on serious or critical violations.
 *
 * Axe runs in the page itself (AxeBuilder's legacy mode, `axe.run`) and reports violations only. By default
 * AxeBuilder runs `axe.runPartial` in every frame and then opens a new blank page to merge the parts (`finishRun`),
 * which costs a fresh renderer and a second injection of axe on every call. The app has no frames, so both ways check the
 * same elements with the same rules; `resultTypes` only skips building the details of passing checks, which these
 * tests never read.
 */
export async function expectNoSeriousA11yViolations(page: Page, label: string) {
  await transitionsSettled(page);
  expect(page.frames(), 'axe in legacy mode checks the main frame only').toHaveLength(1);
  const results = await new AxeBuilder({ page })
    .setLegacyMode()
    .options({ resultTypes: ['violations'] })
    .analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  const summary = serious.map(
    (v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  expect(summary, `axe on ${label}`).toEqual([]);
}

/** Saves a screenshot under tests/e2e/screenshots and checks nothing overflows sideways. */
export async function screenshotAndCheckWidth(page: Page, name: string) {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, `${name} overflows sideways by ${overflow}px`).toBeLessThanOrEqual(0);
}
