// Which Chromium the browser tests launch, and the fresh machine's case: no Debian Chromium, no
// PETKIT_CHROMIUM, only what `npm ci` installed.
import { describe, expect, it } from 'vitest';
import { chooseChromium, launchChromium, SYSTEM_CHROMIUM } from './chromium.js';

const nothing = () => false;

describe('chooseChromium', () => {
  it('takes PETKIT_CHROMIUM first, even when Debian’s Chromium is there', () => {
    const choice = chooseChromium({ env: { PETKIT_CHROMIUM: '/opt/chrome/chrome' }, exists: () => true });
    expect(choice).toEqual({ source: 'PETKIT_CHROMIUM', path: '/opt/chrome/chrome' });
  });

  it('takes /usr/bin/chromium when PETKIT_CHROMIUM is unset and it is present', () => {
    const choice = chooseChromium({ env: {}, exists: (path) => path === SYSTEM_CHROMIUM });
    expect(choice).toEqual({ source: 'system', path: SYSTEM_CHROMIUM });
  });

  it('falls back to the npm build on a fresh machine', () => {
    expect(chooseChromium({ env: {}, exists: nothing })).toEqual({ source: 'npm' });
    expect(chooseChromium({ env: { PETKIT_CHROMIUM: '' }, exists: nothing })).toEqual({ source: 'npm' });
  });

  it('refuses a PETKIT_CHROMIUM that names no file, rather than silently use another', () => {
    expect(() => chooseChromium({ env: { PETKIT_CHROMIUM: '/nowhere/chrome' }, exists: nothing })).toThrow(
      'PETKIT_CHROMIUM is /nowhere/chrome, and no file is there.',
    );
  });
});

describe('launchChromium on a fresh machine', () => {
  it('launches the build shipped in @sparticuz/chromium with /usr/bin/chromium hidden', async () => {
    const { browser, choice } = await launchChromium({ env: {}, exists: (path) => path !== SYSTEM_CHROMIUM });
    try {
      expect(choice).toEqual({ source: 'npm' });
      expect(browser.version()).toMatch(/^143\./);
      const page = await browser.newPage();
      await page.setContent('<p id="out"></p><script>out.textContent = String(1 + 1)</script>');
      expect(await page.textContent('#out')).toBe('2');
    } finally {
      await browser.close();
    }
  }, 60_000);
});
