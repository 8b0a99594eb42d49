/// <reference lib="dom" />
import type { Page } from 'playwright-core';

/** How often a page is checked for animation frames, and how long one may take. */
const CHECK_EVERY_MS = 2_000;
const FRAME_WITHIN_MS = 1_000;

/**
 * Playwright clicks only an element that stays still over two animation frames. Headless Chromium has been seen,
 * once in CI under load, to stop giving a page frames: every click of that page then waited out its timeout, in
 * that test and the next ones. This check asks the page for a frame every two seconds. When none comes, it says so
 * on stderr (with the page's visibility, to tell the causes apart) and makes Chromium draw the page again: it
 * brings it to the front and takes a screenshot, which renders a frame. Stops when the page closes.
 */
export function keepRendering(page: Page): void {
  let checking = false;
  const timer = setInterval(() => {
    if (checking) return;
    checking = true;
    void wakeIfStalled(page).finally(() => (checking = false));
  }, CHECK_EVERY_MS);
  timer.unref();
  page.once('close', () => clearInterval(timer));
}

async function wakeIfStalled(page: Page): Promise<void> {
  const before = await frameOrVisibility(page);
  if (before === 'frame') return;
  await page.bringToFront().catch(() => undefined);
  await page.screenshot({ timeout: 5_000 }).catch(() => undefined);
  const after = await frameOrVisibility(page);
  process.stderr.write(
    `\n*** Chromium gave ${page.url()} no animation frame for ${FRAME_WITHIN_MS} ms (visibility: ${before}); ` +
      `woken: ${after === 'frame' ? 'rendering again' : `still none (${after})`}. ***\n`,
  );
}

/** 'frame' when the page renders one within FRAME_WITHIN_MS; otherwise its visibility state. */
async function frameOrVisibility(page: Page): Promise<string> {
  const within = FRAME_WITHIN_MS;
  return (
    page
      .evaluate(
        (ms) =>
          new Promise<string>((resolve) => {
            requestAnimationFrame(() => resolve('frame'));
            setTimeout(() => resolve(document.visibilityState), ms);
          }),
        within,
      )
      // A page navigating or closing has no context to ask: not a stall.
      .catch(() => 'frame')
  );
}
