import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install -y chromium`); no browser is downloaded. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface TestBrowser {
  browser: Browser;
  newPage(options?: Parameters<Browser['newContext']>[0]): Promise<Page>;
  close(): Promise<void>;
}

/** A headless Chromium for one test file (Playwright gives each launch a fresh, temporary profile). */
export async function launchBrowser(): Promise<TestBrowser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const contexts: BrowserContext[] = [];
  return {
    browser,
    async newPage(options) {
      const context = await browser.newContext(options);
      contexts.push(context);
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      return page;
    },
    async close() {
      await browser.close();
    },
  };
}

/** axe-core's page-level rules (WCAG 2.x A and AA and best practices): the violations, summarised. */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    .analyze();
  return results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/** Saves a screenshot under docs/screenshots when UPDATE_SCREENSHOTS is set (`npm run screenshots`). */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!process.env.UPDATE_SCREENSHOTS) return;
  await page.screenshot({ path: join(__dirname, '..', '..', 'docs', 'screenshots', `${name}.png`), fullPage: true });
}
