import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install -y chromium`), or the one CHROMIUM_PATH names; no browser is downloaded. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Whether Chromium can be run here. */
export const BROWSER_AVAILABLE = isExecutable(CHROMIUM);

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

const MISSING = `Chromium not found at ${CHROMIUM}: install it (apt-get install -y chromium) or set CHROMIUM_PATH`;

/**
 * A browser test file's `describe`. Without Chromium its tests are skipped, with a loud line saying how to install
 * it; with REQUIRE_BROWSER=1 (as `.ci/run` sets) a missing browser fails them instead.
 */
export function describeInBrowser(name: string, tests: () => void): void {
  if (BROWSER_AVAILABLE) return describe(name, tests);
  if (process.env.REQUIRE_BROWSER === '1') {
    return describe(name, () => {
      it('needs Chromium (REQUIRE_BROWSER=1)', () => {
        throw new Error(MISSING);
      });
    });
  }
  process.stderr.write(`\n*** SKIPPED "${name}": ${MISSING}. ***\n\n`);
  describe.skip(name, tests);
}

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

/**
 * Holds the page's answers to requests matching `url`: each request reaches the service at once, its answer reaches
 * the page only after `release`. Shows what the page does with a snapshot older than what it already knows.
 */
export async function holdAnswers(page: Page, url: string | RegExp) {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const answered: Promise<void>[] = [];
  await page.route(url, (route) => {
    const answer = (async () => {
      const response = await route.fetch();
      await opened;
      await route.fulfill({ response });
    })();
    answered.push(answer);
    return answer;
  });
  return {
    held: () => answered.length,
    /** Lets the held answers through, and gives the page a moment to render them. */
    async release(): Promise<void> {
      open();
      await Promise.all(answered);
      await page.unroute(url);
      await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 200)));
    },
  };
}
