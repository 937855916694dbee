/**
 * `npm run screenshots`: the README's pictures, taken from the real app on demo data. Builds the app when the build
 * is missing or stale, creates the demo user in a throw-away data folder, serves the built client from the app on a
 * free port and drives Chromium (playwright-core, CHROMIUM_PATH or /usr/bin/chromium) through three screens, writing
 * docs/screenshots/*.png. The demo is dated PICTURE_DATE and every screen is opened on explicit dates, so the
 * pictures change only when the app does.
 */
import type { FastifyInstance } from 'fastify';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config/config';
import { runDemo } from '../src/server/demo/run-demo';
import { chromiumLaunchOptions } from '../tests/e2e/chromium';
// @ts-expect-error plain ESM script without types
import { buildReason } from './build-freshness.mjs';

const PICTURE_DATE = '2026-10-31';
const OUT_DIR = 'docs/screenshots';
const VIEWPORT = { width: 1440, height: 900 };

/** Builds client and server when `npm start` would. */
function ensureBuild(): void {
  const reason = (buildReason as () => string | null)();
  if (!reason) return;
  console.log(`Building (${reason})...`);
  const result = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

/** Signs in through the login card, as a person would, and waits for the signed-in shell. */
async function signIn(page: Page, url: string, username: string, password: string): Promise<void> {
  await page.goto(url);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.getByText(`Welcome, ${username}`).waitFor();
}

/** Opens a fresh signed-in page in the given colour scheme. */
async function openSignedIn(browser: Browser, url: string, colorScheme: 'light' | 'dark', demo: Demo): Promise<Page> {
  const context = await browser.newContext({ viewport: VIEWPORT, colorScheme, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await signIn(page, url, demo.username, demo.password);
  return page;
}

interface Demo {
  username: string;
  password: string;
  yearBudgetId: number;
}

/** The three pictures: a budget's overview, a month of transactions, and the reports in the dark scheme. */
async function takePictures(browser: Browser, url: string, demo: Demo): Promise<string[]> {
  const shots: string[] = [];
  const save = async (page: Page, name: string) => {
    // Fonts and the last frame of any chart settle before the picture is taken.
    await page.evaluate(() => document.fonts.ready);
    const file = path.join(OUT_DIR, name);
    await page.screenshot({ path: file });
    shots.push(file);
    await page.context().close();
  };

  const budgets = await openSignedIn(browser, url, 'light', demo);
  await budgets.goto(`${url}/?budget=${demo.yearBudgetId}`);
  await budgets.getByRole('region', { name: 'Selected Budget' }).getByText('Transaction Type Totals').waitFor();
  await save(budgets, 'budgets.png');

  const search = await openSignedIn(browser, url, 'light', demo);
  await search.goto(`${url}/transactions?startDate=2026-10-01&endDate=${PICTURE_DATE}`);
  const banner = search.getByText(/^Found \d+ transactions$/);
  await banner.waitFor();
  // The table, not the filter form, fills the picture: the banner goes just under the navigation bar.
  const top = (await banner.boundingBox())?.y ?? 0;
  await search.evaluate((y) => window.scrollTo(0, y), top - 200);
  await save(search, 'transactions.png');

  const reports = await openSignedIn(browser, url, 'dark', demo);
  await reports.goto(`${url}/reports?preset=Custom&startDate=2025-11-01&endDate=${PICTURE_DATE}`);
  await reports.getByTestId('spending-chart').locator('svg').first().waitFor();
  await reports.getByTestId('cashflow-chart').locator('svg').first().waitFor();
  await save(reports, 'reports-dark.png');
  return shots;
}

/** The demo's twelve-month budget, asked of the REST API as a script would. */
async function yearBudgetOf(app: FastifyInstance, username: string, password: string): Promise<number | undefined> {
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });
  const { accessToken } = login.json<{ accessToken: string }>();
  const budgets = await app.inject({ url: '/api/budgets', headers: { authorization: `Bearer ${accessToken}` } });
  return budgets.json<{ id: number; name: string }[]>().find((budget) => budget.name.startsWith('Year budget'))?.id;
}

async function main(): Promise<void> {
  ensureBuild();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bt-screenshots-'));
  const config = loadConfig({ DATA_DIR: dataDir, CLIENT_DIR: 'dist/client', LOG_LEVEL: 'warn', HOST: '127.0.0.1' });
  let browser: Browser | undefined;
  let app: FastifyInstance | undefined;
  try {
    console.log(`Demo data for ${PICTURE_DATE} in ${dataDir}...`);
    const summary = await runDemo({ config, today: PICTURE_DATE });
    app = await buildApp(config);
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const yearBudgetId = await yearBudgetOf(app, summary.username, summary.password);
    if (yearBudgetId === undefined) throw new Error('the demo made no year budget');
    mkdirSync(OUT_DIR, { recursive: true });
    browser = await chromium.launch(chromiumLaunchOptions());
    const shots = await takePictures(browser, url, {
      username: summary.username,
      password: summary.password,
      yearBudgetId,
    });
    console.log(`Wrote ${shots.join(', ')}`);
  } finally {
    await browser?.close();
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
