/// <reference lib="dom" />
// Callbacks passed to page.evaluate and addInitScript run in the browser.
import { describeInBrowser, launchBrowser, TestBrowser } from '../support/browser';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(30_000);

describeInBrowser('the interactive API page, in Chromium under its Content-Security-Policy', () => {
  let app: TestApp;
  let browser: TestBrowser;

  beforeAll(async () => {
    app = await startTestApp();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('shows the operations and tries one out, with nothing blocked', async () => {
    const page = await browser.newPage();
    const blocked: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
    });
    page.on('pageerror', (error) => blocked.push(error.message));
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) =>
        console.error(`Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI}`),
      );
    });
    const response = await page.goto(`${app.url}/docs`);
    expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
    const operation = page.locator('#operations-tools-ToolsController_list');
    await operation.locator('.opblock-summary').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.getByRole('button', { name: 'Execute' }).click();
    await operation.locator('.live-responses-table .response-col_status').getByText('200').waitFor();
    expect(await operation.locator('.live-responses-table').textContent()).toContain('current_time');
    // The page's styles and icons applied: the operation's method badge is coloured, not plain text.
    const badge = await operation.locator('.opblock-summary-method').evaluate((el) => getComputedStyle(el).color);
    expect(badge).toBe('rgb(255, 255, 255)');
    expect(blocked).toEqual([]);
  });
});
