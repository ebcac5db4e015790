/**
 * The documentation page in a real browser, against a real listening server: it lists the
 * operations, "try it out" reaches the server with the key entered under Authorize, and nothing is
 * fetched from anywhere else (the page must work offline). Also renders the README's screenshot:
 * into .tmp/ (git-ignored), and over docs/api-docs.png with UPDATE_SCREENSHOTS=1, so that a test
 * run leaves the checkout as it found it.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS } from '../setup/chromium.js';
import { createTestApp, type TestContext } from '../helpers/app.js';

const SCREENSHOT =
  process.env['UPDATE_SCREENSHOTS'] === '1'
    ? fileURLToPath(new URL('../../docs/api-docs.png', import.meta.url))
    : join(fileURLToPath(new URL('../../.tmp/', import.meta.url)), 'api-docs.png');
/** The screenshot shows the page at the default address, so that it does not change with the test's port. */
const SHOWN_ORIGIN = 'http://localhost:8080';

let t: TestContext;
let origin: string;
let browser: Browser;

beforeAll(async () => {
  t = await createTestApp();
  origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
  });
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** Opens /docs and waits until the operations are rendered; returns the requests sent anywhere else. */
async function openDocs(page: Page, base: string): Promise<string[]> {
  const elsewhere: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(`${base}/`)) elsewhere.push(request.url());
  });
  await page.setViewportSize({ width: 1280, height: 1000 });
  await page.goto(`${base}/docs`);
  await page.getByText('listApiKeys', { exact: true }).waitFor({ timeout: 40_000 });
  return elsewhere;
}

describe('/docs in a browser', () => {
  it("renders the README's screenshot, lists the operations and runs 'try it out' against the server", async () => {
    // One page (rendering the document is most of the test's time): shown at the default address,
    // whose requests go to the test's server, first photographed as it opens, then used.
    const context = await browser.newContext();
    await context.route(`${SHOWN_ORIGIN}/**`, async (route) => {
      const response = await route.fetch({ url: origin + route.request().url().slice(SHOWN_ORIGIN.length) });
      await route.fulfill({ response });
    });
    const page = await context.newPage();
    const elsewhere = await openDocs(page, SHOWN_ORIGIN);
    const png = await page.screenshot();
    expect(png.length).toBeGreaterThan(10_000);
    mkdirSync(join(SCREENSHOT, '..'), { recursive: true });
    writeFileSync(SCREENSHOT, png);

    for (const text of [
      'List the API keys of the account, one page at a time',
      'getPullZone',
      'addDnsRecord',
      'createStorageZone',
      'getVideoLibrary',
      'updateApplicationEndpoint',
    ]) {
      await page.getByText(text, { exact: true }).waitFor({ state: 'visible' });
    }

    await page.locator('.auth-wrapper button.authorize').click();
    const accessKey = page.locator('.dialog-ux .auth-container').filter({ has: page.locator('h4', { hasText: 'AccessKey' }) });
    await accessKey.getByLabel('Value:').fill(t.key);
    await accessKey.getByRole('button', { name: 'Apply credentials' }).click();
    await accessKey.getByRole('button', { name: 'Close' }).click();

    const operation = page.locator('#operations-API_keys-listApiKeys');
    await operation.locator('.opblock-summary-control').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.getByRole('button', { name: 'Execute' }).click();
    const live = operation.locator('.live-responses-table tr.response');
    await live.waitFor();
    expect(await live.locator('.response-col_status').textContent()).toBe('200');
    const shown = await live.locator('.response-col_description').textContent();
    expect(shown).toContain(`"Key": "${t.key}"`);
    expect(shown).toContain('"TotalItems": 1');
    expect(elsewhere).toEqual([]);
    await context.close();
  }, 90_000);
});
