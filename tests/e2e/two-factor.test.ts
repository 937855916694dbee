import { readFileSync } from 'node:fs';
import { Secret, TOTP } from 'otpauth';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { rest } from '../helpers/http';
import {
  expectNoSeriousA11yViolations,
  savedDownload,
  screenshotAndCheckWidth,
  signedInPage,
  useBrowserAndServer,
} from './harness';

/**
 * Two-factor sign-in and the list of sign-ins, clicked through the Profile screen: turning it on (QR code, secret,
 * a code from the app, the ten recovery codes shown once and downloaded), signing in with a code and with a
 * recovery code (which is refused the second time), signing out another sign-in and all others, and turning it off.
 */
const app = useBrowserAndServer();
const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0';

/** The code an authenticator app shows `offsetSteps` periods from now. */
function codeFor(secret: string, offsetSteps = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  return totp.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

const twoFactor = (page: Page) => page.getByRole('region', { name: 'Two-factor sign-in' });
const signInsList = (page: Page) => page.getByRole('list', { name: 'Sign-ins' }).getByRole('listitem');

/** Turns two-factor sign-in on through the Profile screen; answers the secret and the recovery codes shown. */
async function turnOn(page: Page, password: string, label: string): Promise<{ secret: string; codes: string[] }> {
  const section = twoFactor(page);
  await section.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  await section.getByRole('alert').filter({ hasText: 'Enter your current password' }).waitFor();
  await section.getByLabel('Your password').fill('not the password');
  await section.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
  await section.getByRole('alert').filter({ hasText: 'Current password is incorrect' }).waitFor();
  await section.getByLabel('Your password').fill(password);
  await section.getByRole('button', { name: 'Set up two-factor sign-in' }).click();

  const qr = section.getByRole('img', { name: /QR code/ });
  await qr.waitFor();
  expect(await qr.evaluate((el) => el.tagName.toLowerCase())).toBe('svg');
  const secret = await section.getByLabel('Secret').inputValue();
  expect(secret).toMatch(/^[A-Z2-7]{32}$/);
  await expectNoSeriousA11yViolations(page, `two-factor setup ${label}`);
  await screenshotAndCheckWidth(page, `two-factor-setup-${label}`);

  await section.getByLabel('Code from the app').fill(codeFor(secret, 10));
  await section.getByRole('button', { name: 'Turn on' }).click();
  await section
    .getByRole('alert')
    .filter({ hasText: /code does not match/i })
    .waitFor();
  await section.getByLabel('Code from the app').fill(codeFor(secret));
  await section.getByRole('button', { name: 'Turn on' }).click();
  const list = section.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
  await expect.poll(() => list.count()).toBe(10);
  const codes = await list.allInnerTexts();
  expect(new Set(codes).size).toBe(10);
  for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  await expectNoSeriousA11yViolations(page, `recovery codes ${label}`);
  await screenshotAndCheckWidth(page, `two-factor-codes-${label}`);

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    section.getByRole('button', { name: 'Download codes' }).click(),
  ]);
  const file = readFileSync(await savedDownload(download), 'utf8');
  for (const code of codes) expect(file).toContain(code);
  await section.getByRole('button', { name: 'I have saved them' }).click();
  await section.getByText('Unused recovery codes: 10.').waitFor();
  expect(await section.getByRole('list', { name: 'Recovery codes' }).count()).toBe(0);
  return { secret, codes };
}

/** Signs out, then in with the password and `code` at the code step; answers the code step's alert, if any. */
async function signInWithCode(page: Page, username: string, password: string, code: string) {
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.getByLabel('Authentication code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
}

/** Signed in: the navigation bar's Logout shows (the welcome is hidden on a phone). */
async function signedIn(page: Page) {
  await page.getByRole('button', { name: 'Logout' }).waitFor();
}

/** A second sign-in of the user from another browser, over the API (a recovery code completes it). */
async function otherSignIn(username: string, password: string, recoveryCode: string): Promise<string> {
  const headers = { 'user-agent': FIREFOX };
  const challenge = await rest(app.server.url, 'POST', '/api/auth/login', { body: { username, password }, headers });
  expect(challenge.body.mfaRequired).toBe(true);
  const done = await rest(app.server.url, 'POST', '/api/auth/mfa', {
    body: { mfaToken: challenge.body.mfaToken, code: recoveryCode },
    headers,
  });
  expect(done.status).toBe(200);
  return done.body.accessToken as string;
}

const meStatus = async (token: string) => (await rest(app.server.url, 'GET', '/api/auth/me', { token })).status;

describe('two-factor sign-in on the Profile screen', () => {
  for (const [label, width, height] of [
    ['desktop', 1366, 900],
    ['phone', 390, 844],
  ] as const)
    it(`turns on, signs in with a code and a recovery code once, ends other sign-ins, turns off (${label})`, async () => {
      // Opened wide (the welcome signedInPage waits for is hidden on a phone), then narrowed.
      const { page, close, user, errors } = await signedInPage(
        app.browser,
        app.server,
        1366,
        900,
        {},
        {
          path: '/profile',
        },
      );
      await page.setViewportSize({ width, height });
      // Loaded again at the new width: Chromium has been seen keeping a resized page's media queries at the old
      // width (the wide bar at 390 px) until the next load.
      await page.goto(`${app.server.url}/profile`);
      const username = user.user.username;
      await page.getByRole('heading', { name: 'Update Profile', level: 1 }).waitFor();
      // The bar has taken the new width's layout (the drawer's button on a phone) before axe reads its colours.
      if (width < 1200) await page.getByRole('button', { name: 'Open navigation' }).waitFor();
      await expectNoSeriousA11yViolations(page, `profile ${label}`);
      const { secret, codes } = await turnOn(page, user.password, label);

      // The code that turned it on is spent: the app's next code signs in.
      await signInWithCode(page, username, user.password, codeFor(secret, 1));
      await signedIn(page);
      await signInWithCode(page, username, user.password, codes[0]);
      await signedIn(page);
      await signInWithCode(page, username, user.password, codes[0]);
      await page.getByRole('alert').filter({ hasText: 'Invalid or already used code' }).waitFor();
      await expectNoSeriousA11yViolations(page, `code step refused ${label}`);
      await page.getByLabel('Authentication code').fill(codes[1]);
      await page.getByRole('button', { name: 'Verify' }).click();
      await signedIn(page);

      const other = await otherSignIn(username, user.password, codes[2]);
      await page.goto(`${app.server.url}/profile`);
      await expect.poll(() => signInsList(page).count()).toBe(2);
      const mine = signInsList(page).filter({ hasText: 'This device' });
      expect(await mine.getByRole('button', { name: /^Sign out/ }).count()).toBe(0);
      const firefox = signInsList(page).filter({ hasText: 'Firefox on Linux' });
      expect(await firefox.innerText()).toMatch(/Address .+ · Signed in .+ · Last seen /);
      await expectNoSeriousA11yViolations(page, `sign-ins ${label}`);
      await screenshotAndCheckWidth(page, `sign-ins-${label}`);
      await firefox.getByRole('button', { name: /^Sign out Firefox on Linux/ }).click();
      await expect.poll(() => signInsList(page).count()).toBe(1);
      expect(await meStatus(other)).toBe(401);

      const third = await otherSignIn(username, user.password, codes[3]);
      await page.reload();
      await expect.poll(() => signInsList(page).count()).toBe(2);
      await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
      await page.getByText('Signed out 1 other sign-in').waitFor();
      await expect.poll(() => signInsList(page).count()).toBe(1);
      expect(await meStatus(third)).toBe(401);
      expect(await page.getByRole('button', { name: 'Sign out everywhere else' }).isDisabled()).toBe(true);

      const section = twoFactor(page);
      await section.getByText('Unused recovery codes: 6.').waitFor();
      await section.getByLabel('Your password').fill(user.password);
      await section.getByRole('button', { name: 'Turn off two-factor sign-in' }).click();
      await section.getByRole('button', { name: 'Set up two-factor sign-in' }).waitFor();
      const token = await page.evaluate(() => localStorage.getItem('accessToken'));
      const me = await rest(app.server.url, 'GET', '/api/auth/me', { token });
      expect(me.body).toMatchObject({ mfaEnabled: false, recoveryCodesLeft: 0 });
      const plain = await rest(app.server.url, 'POST', '/api/auth/login', {
        body: { username, password: user.password },
      });
      expect(plain.body.accessToken).toEqual(expect.any(String));
      expect(errors).toEqual([]);
      await close();
    });
});
