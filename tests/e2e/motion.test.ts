import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, signedInPage, trpcApi, useBrowserAndServer } from './harness';

const app = useBrowserAndServer();

/** Opens the Upload screen, its user owning one account, with the given motion preference. */
async function openUpload(reducedMotion: 'reduce' | 'no-preference') {
  const session = await signedInPage(
    app.browser,
    app.server,
    1400,
    900,
    { reducedMotion },
    {
      path: '/upload',
      before: (user) =>
        trpcApi(app.server, user.accessToken).accounts.create.mutate({
          name: 'Checking',
          type: 'checking',
          balance: 0,
        }),
    },
  );
  await session.page.getByRole('heading', { name: 'Upload CSV' }).waitFor();
  // Every CSS transition or animation the page starts from now on, with its element. What is on the page already starts
  // its animations (MUI's autofill-detection keyframes on each input) in the next rendered frame: listen after two frames,
  // so those are not counted as the menu's (a run found them after the heading showed, before a frame was drawn).
  await session.page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const started: string[] = [];
    (window as unknown as { started: string[] }).started = started;
    for (const type of ['transitionrun', 'animationstart'])
      document.addEventListener(
        type,
        (event) => {
          const what = event instanceof TransitionEvent ? event.propertyName : (event as AnimationEvent).animationName;
          started.push(`${type} ${what} on ${(event.target as Element).outerHTML.slice(0, 120)}`);
        },
        true,
      );
  });
  return session;
}

const started = (page: Page) => page.evaluate(() => (window as unknown as { started: string[] }).started.slice());
const ripples = (page: Page) => page.locator('.MuiTouchRipple-root').count();

/** Clicks a harmless button (a ripple starts where motion is allowed). */
async function refreshBatches(page: Page) {
  await page.getByRole('button', { name: 'Refresh' }).click();
}

/** Opens the Account select's menu and waits for its option. */
async function openAccountMenu(page: Page) {
  await page.getByRole('combobox', { name: /^Account(\s|$)/ }).click();
  await page.getByRole('listbox').getByRole('option', { name: 'Checking (checking)', exact: true }).waitFor();
}

describe('Motion: the app honours prefers-reduced-motion', () => {
  it('animates menus and ripples by default, and stops once the user asks for reduced motion', async () => {
    const { page, close, errors } = await openUpload('no-preference');
    await refreshBatches(page);
    // MUI mounts a button's ripple on its first press, in a render after the click: wait for it.
    await expect.poll(() => ripples(page)).toBeGreaterThan(0);
    await openAccountMenu(page);
    await expect.poll(async () => (await started(page)).some((entry) => entry.includes('MuiMenu-paper'))).toBe(true);
    // The animated path: axe waits for the menu to finish growing, then checks it.
    await expectNoSeriousA11yViolations(page, 'Upload with the account menu open, animated');
    await page.keyboard.press('Escape');
    await page.getByRole('listbox').waitFor({ state: 'hidden' });

    // The preference is followed as it changes, without a reload.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await expect.poll(() => ripples(page)).toBe(0);
    await page.evaluate(() => ((window as unknown as { started: string[] }).started.length = 0));
    await openAccountMenu(page);
    expect(await started(page)).toEqual([]);
    expect(errors).toEqual([]);
    await close();
  });

  it('opens menus at once and makes no ripple when the page loads asking for reduced motion', async () => {
    const { page, close, errors } = await openUpload('reduce');
    await refreshBatches(page);
    expect(await ripples(page)).toBe(0);
    await openAccountMenu(page);
    expect(await started(page)).toEqual([]);
    expect(
      await page.evaluate(
        () => document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity).length,
      ),
    ).toBe(0);
    await expectNoSeriousA11yViolations(page, 'Upload with the account menu open, reduced motion');
    expect(errors).toEqual([]);
    await close();
  });
});
