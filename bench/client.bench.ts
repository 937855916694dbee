/**
 * Client benchmark: the Transactions screen with 25,000 rows in one
 * search, in Chromium (playwright-core), against the built app (`npm run build` runs first when dist
 * is missing or older than its sources) served by the production server on a temp SQLite file.
 * The rows are seeded over the API (one CSV upload). Measured in the page with performance.now():
 *   - answer arrived (the tRPC answer's responseEnd) -> first row painted;        goal < 300 ms
 *   - click on each column's sort label -> re-rendered and painted;              goal < 100 ms
 *   - scrolling through the whole list, one step a frame: p95 of the frame times
 *     (requestAnimationFrame deltas);                                            goal < 16.7 ms
 *   - click on "Select all" -> every row selected and painted (and back);         goal < 100 ms
 *   - one more pass through the list, traced: the page's main-thread CPU per frame (thread time, so a busy machine
 *     inflates it far less than the frame times) and its style, layout and scroll-event (React) parts
 * "Painted" is the end of the next rendering step (a task posted from the next animation frame).
 * The floor, measured in the same page and run, is one animation frame of an idle page (the
 * display's refresh interval): every figure is printed beside its goal and as a ratio to it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
// @ts-expect-error plain ESM script without types
import { buildReason } from '../scripts/build-freshness.mjs';
import { registerUser, rest } from '../tests/helpers/http';
import { startServerProcess } from './server-process';
import { median, ms } from './stats';

const ROWS = 25_000;
const FRAMES = Number(process.env.CLIENT_BENCH_FRAMES ?? 600);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const MERCHANTS = [
  'TESCO STORES',
  'Corner Coffee',
  'Shell',
  'Landlord Ltd',
  'City Power',
  'ACME PAYROLL',
  'Cinema City',
  'Pharmacy Plus',
  'Airline',
  'Book Nook',
];
const CATEGORIES = [
  'Groceries',
  'Dining',
  'Rent',
  'Utilities',
  'Fuel',
  'Salary',
  'Fun',
  'Health',
  'Travel',
  'Gifts',
  'Insurance',
  'Phone',
];

/** 25,000 rows over five years, most categorised (every seventh is not, so suggestions are asked for too). */
function generateCsv(): string {
  const lines = ['Date,Description,Amount,Category'];
  for (let i = 0; i < ROWS; i += 1) {
    const day = new Date(Date.UTC(2020, 0, 1) + Math.floor((i / ROWS) * 1826) * 86_400_000).toISOString().slice(0, 10);
    const cents = ((i * 7919) % 25000) + 1;
    const sign = i % 10 === 0 ? '' : '-';
    const category = i % 7 === 0 ? '' : (CATEGORIES[(i * 31) % CATEGORIES.length] ?? '');
    lines.push(
      `${day},${MERCHANTS[(i * 13) % MERCHANTS.length] ?? ''} ${1000 + ((i * 7) % 9000)},${sign}${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')},${category}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

async function ensureBuild() {
  const reason = (buildReason as () => string | null)();
  if (!reason) return;
  console.log(`building (${reason})...`);
  const result = spawnSync('npm', ['run', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error('npm run build failed');
}

/**
 * Page helpers, installed before the app loads. Plain JavaScript text: tsx would wrap functions in
 * helpers the page does not have. `nextPaint` resolves after the next rendering step; `paintedWhen`
 * once `ready()` holds (checked after every DOM change), at the next paint.
 */
const PROBES = `
  const nextPaint = () => new Promise((resolve) => {
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve(performance.now());
      channel.port2.postMessage(0);
    });
  });
  const paintedWhen = (ready) => new Promise((resolve) => {
    if (ready()) { nextPaint().then(resolve); return; }
    const observer = new MutationObserver(() => {
      if (!ready()) return;
      observer.disconnect();
      nextPaint().then(resolve);
    });
    observer.observe(document.documentElement, { subtree: true, childList: true, attributes: true, characterData: true });
  });
  const scrollThrough = (count) => new Promise((resolve) => {
    const scroller = document.querySelector('table[aria-label="Transactions"]').parentElement;
    const step = (scroller.scrollHeight - scroller.clientHeight) / count;
    const times = [];
    let last = performance.now();
    let i = 0;
    scroller.scrollTop = 0;
    requestAnimationFrame(function frame(now) {
      if (i > 0) times.push(now - last);
      last = now;
      i += 1;
      if (i > count + 1) { scroller.scrollTop = 0; resolve(times.slice(1)); return; }
      scroller.scrollTop = Math.round(step * i);
      requestAnimationFrame(frame);
    });
  });
  const idleFrames = (count) => new Promise((resolve) => {
    const times = [];
    let last = null;
    requestAnimationFrame(function frame(now) {
      if (last !== null) times.push(now - last);
      last = now;
      if (times.length < count) requestAnimationFrame(frame);
      else resolve(times);
    });
  });
  // The floor for scrolling: the same number of frames, each refilling a plain table (no framework)
  // with as many fresh rows as the virtual window holds, of the same controls, laid out and painted.
  const vanillaFrames = (count, rows, options) => new Promise((resolve) => {
    const host = document.createElement('div');
    host.style.cssText = 'position:fixed;left:0;top:0;width:1300px;height:600px;overflow:hidden;background:#fff;z-index:9999';
    const table = document.createElement('table');
    table.style.cssText = 'table-layout:fixed;width:100%;border-collapse:collapse;font:14px system-ui';
    const body = document.createElement('tbody');
    table.append(body);
    host.append(table);
    document.body.append(host);
    const optionHtml = options.map((name) => '<option>' + name + '</option>').join('');
    const times = [];
    let last = null;
    let n = 0;
    requestAnimationFrame(function frame(now) {
      if (last !== null) times.push(now - last);
      last = now;
      n += 1;
      let html = '';
      for (let i = 0; i < rows; i += 1) {
        const k = n * rows + i;
        html += '<tr style="height:53px"><td><input type="checkbox" aria-label="r' + k + '"></td><td>2024-01-' + (k % 28 + 1) + '</td><td>Shop ' + k +
          '</td><td style="text-align:right">-' + k + '.00</td><td><select><option></option>' + optionHtml + '</select></td><td><select><option>debit</option><option>credit</option></select></td><td>Checking</td></tr>';
      }
      body.innerHTML = html;
      if (times.length < count) requestAnimationFrame(frame);
      else { host.remove(); resolve(times.slice(1)); }
    });
  });
  const rowsSelected = (checked) => [...document.querySelectorAll('tr[data-row-id]')].every((row) => row.getAttribute('aria-selected') === String(checked));
  window.bench = { nextPaint, paintedWhen, scrollThrough, idleFrames, vanillaFrames, rowsSelected };
`;

interface Probes {
  nextPaint: () => Promise<number>;
  paintedWhen: (ready: () => boolean) => Promise<number>;
  scrollThrough: (frames: number) => Promise<number[]>;
  idleFrames: (frames: number) => Promise<number[]>;
  vanillaFrames: (frames: number, rows: number, options: string[]) => Promise<number[]>;
  rowsSelected: (checked: boolean) => boolean;
}

async function signIn(page: Page, url: string, username: string, password: string) {
  await page.goto(`${url}/`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.getByText(`Welcome, ${username}`).first().waitFor();
}

/** A cleared search screen, then one search of the whole range: answer arrived -> first row painted (ms), and the row count found. */
async function firstRows(page: Page, url: string, startDate: string): Promise<{ ms: number; found: string }> {
  // A fresh load each time: no earlier answer in the cache to show meanwhile.
  await page.goto(`${url}/transactions?startDate=&endDate=`);
  await page.getByRole('button', { name: 'Clear Filters' }).waitFor();
  await page.evaluate(() => performance.clearResourceTimings());
  const painted = page.evaluate(() =>
    (window as unknown as { bench: Probes }).bench.paintedWhen(
      () => document.querySelector('tr[data-row-id]') !== null,
    ),
  );
  // Every seventh row is uncategorised: the table then asks for suggestions; later steps wait for that answer.
  const suggested = page.waitForResponse((response) => response.url().includes('categories.suggest'));
  await page.getByLabel('Start Date').fill(startDate);
  // A complete date range searches at once (no Search press).
  await page.getByLabel('End Date').fill('2025-12-31');
  const paintedAt = await painted;
  const arrived = await page.evaluate(() => {
    const entries = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((entry) =>
      entry.name.includes('transactions.list'),
    );
    return entries.at(-1)?.responseEnd ?? Number.NaN;
  });
  const found = (await page.getByText(/Found \d+ transactions/).textContent()) ?? '';
  // The page settles (the suggestions answer shown) before the next step is measured.
  await suggested;
  await page.evaluate(() => (window as unknown as { bench: Probes }).bench.nextPaint());
  return { ms: paintedAt - arrived, found };
}

/** Click a column's sort label -> the header says the new order, painted (ms). */
async function sortBy(page: Page, label: string): Promise<number> {
  return page.evaluate(async (name) => {
    const bench = (window as unknown as { bench: Probes }).bench;
    const cell = [...document.querySelectorAll('table[aria-label="Transactions"] thead th')].find((th) =>
      th.textContent.trim().startsWith(name),
    );
    const button = cell?.querySelector<HTMLElement>('.MuiTableSortLabel-root');
    if (!cell || !button) throw new Error(`no sort label ${name}`);
    const before = `${cell.getAttribute('aria-sort') ?? ''}|${document.querySelector('tr[data-row-id]')?.getAttribute('data-row-id') ?? ''}`;
    const start = performance.now();
    const painted = bench.paintedWhen(
      () =>
        `${cell.getAttribute('aria-sort') ?? ''}|${document.querySelector('tr[data-row-id]')?.getAttribute('data-row-id') ?? ''}` !==
        before,
    );
    button.click();
    return (await painted) - start;
  }, label);
}

/** Scrolls the list from top to bottom in `frames` equal steps, one a frame: the frame times (ms). */
async function scrollThrough(page: Page, frames: number): Promise<number[]> {
  return page.evaluate((count) => (window as unknown as { bench: Probes }).bench.scrollThrough(count), frames);
}

/** Frame times of an idle page (the floor: the refresh interval). */
async function idleFrames(page: Page, frames: number): Promise<number[]> {
  return page.evaluate((count) => (window as unknown as { bench: Probes }).bench.idleFrames(count), frames);
}

/** Click "Select all" -> every row shown selected (or none), painted (ms). */
async function selectAll(page: Page, expectChecked: boolean): Promise<number> {
  return page.evaluate(async (checked) => {
    const bench = (window as unknown as { bench: Probes }).bench;
    const box = document.querySelector<HTMLInputElement>('input[aria-label="Select all transactions"]');
    if (!box) throw new Error('no select-all checkbox');
    const start = performance.now();
    const painted = bench.paintedWhen(() => box.checked === checked && bench.rowsSelected(checked));
    box.click();
    return (await painted) - start;
  }, expectChecked);
}

/**
 * The page's main-thread CPU per scroll frame, from a trace of one more pass through the list: each task's thread
 * time (not wall time, so other processes on the machine inflate it far less than the frame times), in total and
 * for the parts that scale with the rows built: the scroll event (React rendering the new window), style and layout.
 */
async function scrollCpu(page: Page, frames: number): Promise<string> {
  const browser = page.context().browser();
  if (!browser) return 'no browser';
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  await scrollThrough(page, frames);
  const trace = await browser.stopTracing();
  const events = (
    JSON.parse(trace.toString()) as {
      traceEvents: { name: string; ph: string; tid: number; tdur?: number; args?: { name?: string } }[];
    }
  ).traceEvents;
  const main = new Set(
    events
      .filter((event) => event.name === 'thread_name' && event.args?.name === 'CrRendererMain')
      .map((event) => event.tid),
  );
  const sum = (name: string) =>
    events.reduce(
      (total, event) =>
        event.ph === 'X' && event.name === name && main.has(event.tid) ? total + (event.tdur ?? 0) : total,
      0,
    );
  const per = (name: string) => ms(sum(name) / 1000 / frames);
  return `main-thread CPU per frame ${per('RunTask')}: scroll event ${per('EventDispatch')}, style ${per('UpdateLayoutTree')}, layout ${per('Layout')}`;
}

/**
 * CLIENT_BENCH_PROFILE=1: a CPU profile of the page while `work` runs, written to bench/.data and
 * summarised (top functions by self time). Build with `npx vite build --minify false` for names.
 */
async function profiled<T>(page: Page, name: string, work: () => Promise<T>): Promise<T> {
  if (!process.env.CLIENT_BENCH_PROFILE) return work();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.start');
  const browser = page.context().browser();
  await browser?.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  const result = await work();
  const trace = await browser?.stopTracing();
  const { profile } = await cdp.send('Profiler.stop');
  if (trace) {
    const events = (JSON.parse(trace.toString()) as { traceEvents: { name: string; ph: string; dur?: number }[] })
      .traceEvents;
    const byName = new Map<string, number>();
    for (const event of events)
      if (event.ph === 'X' && event.dur) byName.set(event.name, (byName.get(event.name) ?? 0) + event.dur / 1000);
    console.log(
      `trace ${name}: ${[...byName]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 14)
        .map(([key, time]) => `${key} ${time.toFixed(0)}`)
        .join(', ')}`,
    );
  }
  mkdirSync('bench/.data', { recursive: true });
  writeFileSync(`bench/.data/client-${name}.cpuprofile`, JSON.stringify(profile));
  const self = new Map<string, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  samples.forEach((id, i) => {
    const frame = byId.get(id)?.callFrame;
    const key = frame
      ? `${frame.functionName || '(anonymous)'} ${frame.url.split('/').pop() ?? ''}:${frame.lineNumber}`
      : '?';
    self.set(key, (self.get(key) ?? 0) + (deltas[i] ?? 0) / 1000);
  });
  console.log(`profile ${name}:`);
  for (const [key, time] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`  ${ms(time).padStart(10)}  ${key}`);
  await cdp.detach();
  return result;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

function line(label: string, value: number, goal: number, floor: number): string {
  const verdict = value < goal ? 'meets' : 'MISSES';
  return `${label.padEnd(44)} ${ms(value).padStart(10)}  goal < ${ms(goal)} (${verdict}; ${(value / floor).toFixed(1)}× the frame floor)`;
}

export default async function clientBench(): Promise<void> {
  await ensureBuild();
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}`);
  const server = await startServerProcess({}, { script: path.resolve('dist/server/main.js') });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  try {
    const user = await registerUser(server.url);
    await rest(server.url, 'POST', '/api/accounts', {
      token: user.accessToken,
      body: { name: 'Checking', type: 'checking' },
    });
    const body = new FormData();
    body.append('file', new Blob([generateCsv()]), 'bench.csv');
    body.append('account', 'Checking');
    body.append('transactionType', 'debit');
    const seeded = await rest(server.url, 'POST', '/api/upload', { token: user.accessToken, body });
    if (seeded.status !== 201) throw new Error(`seeding failed: ${seeded.status} ${JSON.stringify(seeded.body)}`);
    console.log(`seeded ${ROWS} rows over POST /api/upload`);

    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.addInitScript({ content: PROBES });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error('page error:', error.message));
    await signIn(page, server.url, user.user.username, user.password);
    await page.goto(`${server.url}/transactions?startDate=&endDate=`);
    await page.getByRole('button', { name: 'Clear Filters' }).waitFor();

    const floor = median(await idleFrames(page, 120));
    console.log(`floor: one animation frame of an idle page ${ms(floor)} (median of 120)`);

    const firsts: number[] = [];
    for (let run = 0; run < 3; run += 1) {
      const result = await profiled(page, `first-${run}`, () =>
        firstRows(page, server.url, `2019-12-${String(31 - run).padStart(2, '0')}`),
      );
      if (!result.found.includes(String(ROWS))) throw new Error(`the search found "${result.found}", not ${ROWS}`);
      firsts.push(result.ms);
    }
    console.log(
      line('answer arrived -> first row painted (median)', median(firsts), 300, floor),
      `runs ${firsts.map((v) => v.toFixed(0)).join(', ')}`,
    );

    const sorts: number[] = [];
    for (const column of ['Date', 'Description', 'Amount', 'Category', 'Type', 'Account']) {
      const times = await profiled(page, `sort-${column}`, async () => [
        await sortBy(page, column),
        await sortBy(page, column),
      ]);
      sorts.push(...times);
      console.log(line(`sort by ${column} (worst of both directions)`, Math.max(...times), 100, floor));
    }
    console.log(line('sort, worst of all 12 clicks', Math.max(...sorts), 100, floor));

    const windowRows = await page.locator('tr[data-row-id]').count();
    for (let run = 0; run < 2; run += 1) {
      const frames = await profiled(page, `scroll-${run}`, () => scrollThrough(page, FRAMES));
      const vanilla = await page.evaluate(
        ([count, rows, options]) => (window as unknown as { bench: Probes }).bench.vanillaFrames(count, rows, options),
        [FRAMES, windowRows, CATEGORIES] as const,
      );
      console.log(
        line(`scroll through all rows, p95 frame (run ${run + 1})`, percentile(frames, 95), 16.7, floor),
        `median ${ms(median(frames))}, max ${ms(Math.max(...frames))}, ${frames.filter((t) => t > floor * 1.5).length}/${frames.length} frames missed`,
      );
      const p95 = percentile(vanilla, 95);
      console.log(
        `  floor: a plain table refilled with ${windowRows} fresh rows a frame, p95 ${ms(p95)} (median ${ms(median(vanilla))}); the app's p95 is ${(percentile(frames, 95) / p95).toFixed(2)}× it`,
      );
    }
    console.log(`scroll through all rows once more, traced: ${await scrollCpu(page, FRAMES)}`);

    const selects: number[] = [];
    for (let run = 0; run < 3; run += 1) {
      const on = await selectAll(page, true);
      const off = await selectAll(page, false);
      selects.push(on, off);
    }
    console.log(
      line('select all / none, worst of 6 clicks', Math.max(...selects), 100, floor),
      `runs ${selects.map((v) => v.toFixed(0)).join(', ')}`,
    );
  } finally {
    await browser.close();
    await server.close();
  }
}
