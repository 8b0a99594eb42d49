import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';
import { keepRendering } from './page-rendering';

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
      keepRendering(page);
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

/**
 * What makes a page, or a box in it, scroll sideways at this width: elements that reach past the viewport's right
 * edge with nothing clipping them, and boxes whose content scrolls sideways within them. Left out are those allowed
 * to pan (code blocks and the workflow graph) and what is out of sight (visually hidden text, a skip link off
 * screen, text cut short inside a box that hides its overflow). Each as `tag.class "text…"`.
 */
export async function elementsWiderThanViewport(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const clips = (style: CSSStyleDeclaration) => style.overflowX !== 'visible';
    const describe = (element: Element, what: string) =>
      `${element.tagName.toLowerCase()}.${element.className} "${(element.textContent ?? '').trim().slice(0, 40)}" (${what})`;
    const wide: string[] = [];
    for (const element of Array.from(document.body.querySelectorAll('*'))) {
      if (element.closest('pre, code, [data-pans], .visually-hidden, svg, datalist, option')) continue;
      const style = getComputedStyle(element);
      if (style.position === 'absolute' && style.clip !== 'auto') continue;
      if (/auto|scroll/.test(style.overflowX) && element.scrollWidth > element.clientWidth + 1) {
        wide.push(describe(element, `scrolls ${element.scrollWidth - element.clientWidth}px sideways`));
        continue;
      }
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || box.right <= width + 0.5) continue;
      let clipped = false;
      for (let parent = element.parentElement; parent && parent !== document.body && !clipped;) {
        const parentStyle = getComputedStyle(parent);
        clipped = clips(parentStyle) || (parentStyle.position === 'absolute' && parentStyle.clip !== 'auto');
        parent = parent.parentElement;
      }
      if (!clipped) wide.push(describe(element, `${Math.round(box.right)}px`));
    }
    return wide;
  });
}
