/**
 * The tests of a file take turns on one shared page (see openPage), so the renderer and its compiled bundle
 * are reused; each session must still start as a fresh context would.
 */
import { describe, expect, it } from 'vitest';
import { expectNoSeriousA11yViolations, openPage, signedInPage, useBrowserAndServer } from './harness';

const app = useBrowserAndServer();

const media = () => ({
  dark: matchMedia('(prefers-color-scheme: dark)').matches,
  reducedMotion: matchMedia('(prefers-reduced-motion: reduce)').matches,
});

describe('the page a file shares between its tests', () => {
  it('starts each session clean: no storage, cookies, routes, listeners or other pages of the one before, its own viewport and media', async () => {
    const first = await signedInPage(app.browser, app.server, 576, 700, {
      colorScheme: 'dark',
      reducedMotion: 'no-preference',
    });
    expect(await first.page.evaluate(media)).toEqual({ dark: true, reducedMotion: false });
    await first.context.addCookies([{ name: 'left', value: 'over', url: app.server.url }]);
    await first.page.evaluate(() => sessionStorage.setItem('left', 'over'));
    await first.page.route(`${app.server.url}/`, (route) => route.abort());
    const heard: string[] = [];
    first.page.on('request', (request) => heard.push(request.url()));
    await first.context.newPage();
    await first.close();

    const second = await openPage(app.browser, 1000, 800);
    expect(second.page).toBe(first.page);
    expect(second.context.pages()).toEqual([second.page]);
    expect(await second.context.cookies()).toEqual([]);
    heard.length = 0;
    await second.page.goto(`${app.server.url}/`);
    expect(heard).toEqual([]);
    await second.page.getByLabel('Username').waitFor();
    expect(await second.page.evaluate(() => ({ local: localStorage.length, session: sessionStorage.length }))).toEqual({
      local: 0,
      session: 0,
    });
    expect(second.page.viewportSize()).toEqual({ width: 1000, height: 800 });
    expect(await second.page.evaluate(media)).toEqual({ dark: false, reducedMotion: true });
    expect(second.errors).toEqual([]);
    await second.close();
  });

  it('does not lend a page whose context has a fake clock installed to the next session', async () => {
    const first = await openPage(app.browser);
    await first.page.clock.install();
    await first.close();
    expect(first.page.isClosed()).toBe(true);

    const second = await openPage(app.browser);
    expect(second.context).not.toBe(first.context);
    await second.page.goto(`${app.server.url}/`);
    expect(await second.page.evaluate(() => typeof (globalThis as { __pwClock?: unknown }).__pwClock)).toBe(
      'undefined',
    );
    await second.close();
  });

  it('gives a session its own context while the shared page is in use', async () => {
    const shared = await openPage(app.browser);
    const beside = await openPage(app.browser);
    expect(beside.context).not.toBe(shared.context);
    await beside.close();
    expect(beside.page.isClosed()).toBe(true);
    await shared.close();
  });

  it('shares another page between sessions that ask for other context options (a locale)', async () => {
    const english = await openPage(app.browser);
    await english.close();
    const german = await openPage(app.browser, 1400, 900, { locale: 'de-DE' });
    expect(german.context).not.toBe(english.context);
    await german.page.goto(`${app.server.url}/`);
    expect(await german.page.evaluate(() => navigator.language)).toBe('de-DE');
    await german.close();

    const again = await openPage(app.browser, 1400, 900, { locale: 'de-DE' });
    expect(again.page).toBe(german.page);
    await again.page.goto(`${app.server.url}/`);
    expect(await again.page.evaluate(() => navigator.language)).toBe('de-DE');
    await again.close();
  });

  it('signs the next session in as its own user only, on the page the last one left parked', async () => {
    const first = await signedInPage(app.browser, app.server);
    await first.close();
    const second = await signedInPage(app.browser, app.server);
    expect(second.page).toBe(first.page);
    expect(second.user.user.username).not.toBe(first.user.user.username);
    await second.page.reload();
    await second.page.getByText(`Welcome, ${second.user.user.username}`).first().waitFor();
    expect(await second.page.getByText(`Welcome, ${first.user.user.username}`).count()).toBe(0);
    expect(second.errors).toEqual([]);
    await second.close();
  });
});

describe('the accessibility check', () => {
  it('fails on a serious violation in the page (axe runs in the page itself)', async () => {
    const { page, close } = await openPage(app.browser);
    await page.goto(`${app.server.url}/`);
    await page.setContent(
      '<!doctype html><html lang="en"><title>t</title><main><img src="data:,"><p style="color:#999;background:#aaa">faint</p></main></html>',
    );
    const failure = await expectNoSeriousA11yViolations(page, 'a page with faults').then(
      () => null,
      (error: unknown) => JSON.stringify((error as { actual?: unknown }).actual),
    );
    expect(failure).toMatch(/image-alt \(critical\)/);
    expect(failure).toMatch(/color-contrast \(serious\)/);
    await close();
  });
});
