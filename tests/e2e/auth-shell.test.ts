import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, rest } from '../helpers/http';
import type { TestServer } from '../helpers/server';
import {
  expectNoSeriousA11yViolations,
  launchBrowser,
  loginViaUi,
  openPage,
  screenshotAndCheckWidth,
  signedInPage,
  startAppServer,
} from './harness';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const ROUTES = [
  { link: 'Budgets', path: '/', heading: 'Budgets' },
  { link: 'Envelopes', path: '/envelopes', heading: /^Envelopes/ },
  { link: 'Categories', path: '/categories', heading: 'Categories' },
  { link: 'Upload', path: '/upload', heading: 'Upload' },
  { link: 'Create Budget', path: '/create-budget', heading: 'Create Budget' },
  { link: 'Transactions', path: '/transactions', heading: 'Transaction Search' },
  { link: 'Profile', path: '/profile', heading: 'Update Profile' },
] as const;

describe('first run, login and logout', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startAppServer();
  });

  afterAll(() => server?.close());

  it('offers registration on a new instance, signs the new user in, and logs out', async () => {
    const { page, close, errors } = await openPage(browser);
    // Hold the auth-state call to see 'Loading...' while it loads.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/trpc/auth.status**', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(server.url);
    await page.getByText('Loading...').waitFor();
    expect(await page.getByLabel('Username').count()).toBe(0);
    release();
    await expect.poll(() => page.getByRole('heading', { name: 'Budget Tracker' }).isVisible()).toBe(true);
    await page.getByText('Welcome! Create the first account on this server.').waitFor();
    await expectNoSeriousA11yViolations(page, 'login card (first run)');
    await screenshotAndCheckWidth(page, 'login-first-run-1400');

    await page.getByLabel('Username').fill('owner');
    await page.getByLabel('Password').fill('owner-password');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Welcome, owner').waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const route of ROUTES)
      await expect(nav.getByRole('link', { name: route.link, exact: true }).isVisible()).resolves.toBe(true);
    expect(await page.evaluate(() => Object.keys(localStorage).sort())).toEqual([
      'accessToken',
      'refreshToken',
      'user',
    ]);

    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    expect(errors).toEqual([]);
    await close();
  });

  it('shows the server message in a red alert for a wrong password, then logs in', async () => {
    const user = await registerUser(server.url);
    const { page, close } = await openPage(browser);
    await page.goto(server.url);
    await page.getByLabel('Username').fill(user.user.username);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toBe('Invalid username or password');
    const color = await alert.evaluate((el) => getComputedStyle(el).backgroundColor);
    const [r, g, b] = color.match(/\d+/g)!.map(Number);
    expect(r).toBeGreaterThan(g);
    expect(r).toBeGreaterThan(b);

    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await page.getByText(`Welcome, ${user.user.username}`).waitFor();
    await close();
  });

  it('keeps the session across a reload, reaches every route by link, deep link and reload', async () => {
    const { page, close, errors } = await signedInPage(browser, server);
    await page.reload();
    await page.getByRole('heading', { name: 'Budgets', level: 1 }).waitFor();

    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const route of ROUTES) {
      await nav.getByRole('link', { name: route.link, exact: true }).click();
      await page.waitForURL(`${server.url}${route.path}`);
      await page.getByRole('heading', { name: route.heading, level: 1 }).waitFor();
    }
    // The screens used less often sit under More (at 1400 px the bar has room for the rest), and its links work.
    await nav.getByRole('button', { name: 'More' }).click();
    const more = page.getByRole('menu', { name: 'More' });
    expect(await more.getByRole('menuitem').allInnerTexts()).toEqual(['Rules', 'Schedules', 'Rates', 'History']);
    await more.getByRole('menuitem', { name: 'Schedules' }).click();
    await page.waitForURL(`${server.url}/schedules`);
    await page.getByRole('heading', { name: 'Schedules', level: 1 }).waitFor();
    await expect.poll(() => more.count()).toBe(0);
    for (const route of ROUTES) {
      await page.goto(`${server.url}${route.path}`);
      await page.getByRole('heading', { name: route.heading, level: 1 }).waitFor();
      await page.reload();
      await page.getByRole('heading', { name: route.heading, level: 1 }).waitFor();
    }
    expect(errors).toEqual([]);
    await close();
  });

  it('opens a deep link on the login screen and lands on it after logging in', async () => {
    const user = await registerUser(server.url);
    const { page, close } = await openPage(browser);
    await loginViaUi(page, server.url, user.user.username, user.password, '/categories');
    expect(page.url()).toBe(`${server.url}/categories`);
    await page.getByRole('heading', { name: 'Categories', level: 1 }).waitFor();
    await close();
  });

  it('works at 576 px through the navigation drawer', async () => {
    const { page, close } = await signedInPage(browser, server, 576, 900);
    await screenshotAndCheckWidth(page, 'shell-576');
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await page.getByRole('link', { name: 'Transactions', exact: true }).click();
    await page.waitForURL(`${server.url}/transactions`);
    await page.getByRole('heading', { name: 'Transaction Search', level: 1 }).waitFor();
    await close();
  });
});

describe('profile', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startAppServer();
  });

  afterAll(() => server?.close());

  it('validates, saves only what changed, and shows a generated API token once', async () => {
    const { page, close, user, errors } = await signedInPage(browser, server);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('heading', { name: 'Update Profile' }).waitFor();
    await expectNoSeriousA11yViolations(page, 'profile');

    const confirm = page.getByLabel('Confirm Password');
    expect(await confirm.isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('No changes to save');

    await page.getByLabel('New Password').fill('new-password-1');
    expect(await confirm.isDisabled()).toBe(false);
    await confirm.fill('something else');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Passwords do not match');

    await page.getByLabel('New Password').fill('');
    await page.getByLabel('API Token').fill('short-token');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('API token must be at least 32 characters');

    const sent: unknown[] = [];
    page.on('request', (request) => {
      if (request.url().includes('auth.updateProfile')) sent.push(request.postDataJSON());
    });
    await page.getByRole('button', { name: 'Generate' }).click();
    const token = await page.getByLabel('API Token').inputValue();
    expect(token).toMatch(/^btapi_[A-Za-z0-9_-]{43}$/);
    // Every change needs the current password; a wrong one is the server's 403, shown as is.
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Enter your current password to save changes');
    await page.getByLabel('Current password').fill('not-my-password');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Current password is incorrect');
    expect(page.url()).toBe(`${server.url}/profile`);
    await page.getByLabel('Current password').fill(user.password);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Copy it now: it will not be shown again.').waitFor();
    expect(await page.getByLabel('Current password').inputValue()).toBe('');
    expect(await page.getByLabel('Saved API token').inputValue()).toBe(token);
    await page.getByText(/A token is set \(since /).waitFor();
    expect(JSON.stringify(sent)).toContain(token);
    expect(JSON.stringify(sent)).not.toContain('username');
    expect(JSON.stringify(sent)).toContain('currentPassword');

    const me = await rest(server.url, 'GET', '/api/auth/me', { token });
    expect(me.status).toBe(200);
    expect(me.body.username).toBe(user.user.username);

    await page.reload();
    await page.getByText(/A token is set \(since /).waitFor();
    expect(await page.getByText(token).count()).toBe(0);
    expect(errors).toEqual([]);
    await close();
  });

  it('shows the server message when the username is taken', async () => {
    const other = await registerUser(server.url);
    const { page, close } = await signedInPage(browser, server);
    await page.goto(`${server.url}/profile`);
    await page.getByLabel('Username').fill(other.user.username.toUpperCase());
    await page.getByLabel('Current password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('That username is already taken');
    await close();
  });
});

/** Waits until the server refuses the page's access token (ACCESS_TOKEN_TTL is a couple of seconds). */
async function untilAccessTokenExpired(page: Page, server: TestServer) {
  const token = await page.evaluate(() => localStorage.getItem('accessToken'));
  expect(token).toBeTruthy();
  await expect
    .poll(async () => (await rest(server.url, 'GET', '/api/accounts', { token })).status, {
      timeout: 15_000,
      interval: 100,
    })
    .toBe(401);
}

describe('token refresh', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startAppServer({ ACCESS_TOKEN_TTL: '2' });
  });

  afterAll(() => server?.close());

  it('renews an expired access token without the user noticing', async () => {
    const { page, close, user, errors } = await signedInPage(browser, server);
    const before = await page.evaluate(() => localStorage.getItem('accessToken'));
    const refreshes: number[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/api/auth/refresh')) refreshes.push(response.status());
    });
    await untilAccessTokenExpired(page, server);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
    await page.getByLabel('New Password').fill('renewed-password');
    await page.getByLabel('Confirm Password').fill('renewed-password');
    await page.getByLabel('Current password').fill(user.password);
    // The page's timers run on a paused fake clock from here, so "vanishes after 3 s" is checked by
    // advancing it, not by reading the wall clock.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 60_000);
    await page.getByRole('button', { name: 'Save Changes' }).click();
    const notice = page.getByText('Profile updated successfully');
    await notice.waitFor();
    await page.clock.runFor(2_900);
    expect(await notice.isVisible()).toBe(true);
    await page.clock.runFor(1_000);
    await notice.waitFor({ state: 'detached' });
    await page.clock.resume();
    // Renewed each time the short-lived token ran out (more than once on a slow machine), never refused.
    expect(refreshes.length).toBeGreaterThan(0);
    expect(refreshes.filter((status) => status !== 200)).toEqual([]);
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).not.toBe(before);
    expect(page.url()).toBe(`${server.url}/profile`);
    const login = await rest(server.url, 'POST', '/api/auth/login', {
      body: { username: user.user.username, password: 'renewed-password' },
    });
    expect(login.status).toBe(200);

    // Expired again, then a reload: the session is restored through a refresh (and renewed again if the short-lived
    // token runs out before the page is done, on a slow machine), never refused.
    const refreshedBefore = refreshes.length;
    await untilAccessTokenExpired(page, server);
    await page.reload();
    await page.getByText(`Welcome, ${user.user.username}`).waitFor();
    expect(refreshes.length).toBeGreaterThan(refreshedBefore);
    expect(refreshes.filter((status) => status !== 200)).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });

  it('returns to the login screen when the refresh token is no longer valid', async () => {
    const { page, close } = await signedInPage(browser, server);
    const refreshToken = await page.evaluate(() => localStorage.getItem('refreshToken'));
    await rest(server.url, 'POST', '/api/auth/logout', { token: refreshToken });
    await untilAccessTokenExpired(page, server);
    // The Profile screen's first call (its list of sign-ins) finds the session ended.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBeNull();
    await close();
  });
});

describe('closed registration', () => {
  it('offers no account creation once the first user exists', async () => {
    const server = await startAppServer({ ALLOW_REGISTRATION: 'false' });
    try {
      await registerUser(server.url);
      const { page, close } = await openPage(browser);
      await page.goto(server.url);
      await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
      await page.waitForLoadState('networkidle');
      expect(await page.getByText('Create an account').count()).toBe(0);
      await close();
    } finally {
      await server.close();
    }
  });
});
