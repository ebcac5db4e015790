/**
 * The web console in headless Chromium, against a real listening API, storage plane, edge and
 * origin: one browser, one server, the flows in sequence, each checked by what the API (or the
 * edge, or the file API) then answers, not only by what the page shows. The page must fetch
 * nothing from anywhere else (it works offline), and axe-core must find no serious violation.
 * Screenshots of the main pages go to .tmp/console-screenshots/ (git-ignored) for a reviewer.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_ARGS } from '../setup/chromium.js';
import { createTestApp, TestClock, type TestContext } from '../helpers/app.js';
import { type EdgePlane, startEdgePlane, startOrigin, type TestOrigin } from '../helpers/edge-plane.js';
import { files, type StoragePlane, startStoragePlane } from '../helpers/storage-plane.js';
import { PACKAGE_ROOT } from '../helpers/server-process.js';
import type { FastifyInstance } from 'fastify';
import { buildVideoApp } from '../../src/planes/video/app.js';

const SCREENSHOTS = join(PACKAGE_ROOT, '.tmp', 'console-screenshots');
const AXE = readFileSync(join(PACKAGE_ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');
const BIG_FILE_BYTES = 50 * 1024 * 1024;

let t: TestContext;
let api: string;
let storage: StoragePlane;
let edge: EdgePlane;
let origin: TestOrigin;
let video: FastifyInstance;
let videoUrl: string;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let work: string;
/** Every request the page made to a place other than this server's planes. */
const elsewhere: string[] = [];
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
/** The 50 MB file the file browser uploads and downloads, written while the planes and Chromium start. */
const big = randomBytes(BIG_FILE_BYTES);

beforeAll(async () => {
  const launching = chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  // The statistics are counted at the time the edge answers: the API's clock is the real one.
  t = await createTestApp({}, { clock: new TestClock(Date.now()) });
  video = await buildVideoApp({ services: t.app.services, config: t.config });
  work = join(PACKAGE_ROOT, '.tmp', `console-test-${process.pid}`);
  mkdirSync(work, { recursive: true });
  [api, storage, edge, origin, browser, videoUrl] = await Promise.all([
    t.app.listen({ port: 0, host: '127.0.0.1' }),
    startStoragePlane(t),
    startEdgePlane(t),
    startOrigin(),
    launching,
    video.listen({ port: 0, host: '127.0.0.1' }),
    // The documents the forms are made from are generated on their first request: while Chromium starts.
    t.get('/openapi.json', null),
    video.inject({ url: '/openapi.json' }),
    writeFile(join(work, 'big.bin'), big),
  ]);
  context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
  // Offline: whatever is not this machine (the server's planes: the API, and the file API on its
  // default port until the test names the one it started) is refused, and noted.
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (new URL(url).hostname === '127.0.0.1') return route.continue();
    elsewhere.push(url);
    return route.abort('internetdisconnected');
  });
  page = await context.newPage();
  rmSync(SCREENSHOTS, { recursive: true, force: true });
  mkdirSync(SCREENSHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([storage?.close(), edge?.close(), origin?.close(), video?.close()]);
  await t?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

// A flow that failed leaves the page as it was, for whoever looks into it.
afterEach(async (test) => {
  if (test.task.result?.state === 'fail' && page)
    await page.screenshot({ path: join(SCREENSHOTS, `failed-${test.task.name.slice(0, 40).replace(/\W+/g, '-')}.png`), fullPage: true });
});

/** Serious and critical accessibility violations on the page as it is now (axe-core, WCAG 2 A and AA). */
async function seriousViolations(): Promise<string[]> {
  // Injected once: the console is one page, which the flows never leave.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run: (context: Document, options: unknown) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      resultTypes: ['violations'],
      iframes: false,
    });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => n.target.join(' ')) }));
  });
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}): ${v.targets.join(', ')}`);
}

/** A screenshot for the reviewer, and (unless told otherwise) the accessibility check of the page as shown. */
async function shoot(name: string, { checkAccessibility = true } = {}): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
  if (checkAccessibility) expect(await seriousViolations(), name).toEqual([]);
}

/** The message shown beside a form control (its aria-describedby's problem). */
const problemBeside = (controlId: string) => page.locator(`#${controlId}-error`);

describe('the web console', () => {
  it('refuses a wrong key, then signs in with a right one', async () => {
    await page.goto(`${api}/`);
    await page.getByLabel('API key').fill('not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.locator('#api-key-error').textContent()).toContain('refused');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await shoot('sign-in');

    await page.getByLabel('API key').fill(t.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Pull zones' }).waitFor();
    expect(await page.evaluate(() => Object.values(sessionStorage))).toEqual([t.key]);
    expect(page.url()).not.toContain(t.key);
  });

  it("shows the API's error next to its field, then creates a pull zone and changes a setting", async () => {
    await page.getByLabel('Name').fill('console-zone');
    // Labels are the schema's names in words (`OriginUrl`: "Origin URL"), its descriptions the help beside them.
    await page.getByLabel('Origin URL').fill('not a url');
    await page.getByRole('button', { name: 'Add pull zone' }).click();
    await expect.poll(() => problemBeside('new-pull-zone-OriginUrl').textContent()).toBe('The OriginUrl must be an absolute http or https URL.');
    expect(await page.getByLabel('Origin URL').getAttribute('aria-invalid')).toBe('true');
    expect((await t.get('/pullzone')).body).toEqual([]);
    await shoot('pull-zone-error', { checkAccessibility: false });

    await page.getByLabel('Origin URL').fill(origin.url);
    await page.getByRole('button', { name: 'Add pull zone' }).click();
    await page.getByRole('heading', { name: 'Pull zone console-zone' }).waitFor();
    const [zone] = (await t.get('/pullzone')).body as { Id: number; OriginUrl: string }[];
    expect(zone?.OriginUrl).toBe(origin.url);

    await page.getByText('Caching', { exact: false }).first().click();
    await page.getByLabel('Cache control max age override').fill('3600');
    await page.getByRole('button', { name: 'Save Caching settings' }).click();
    await expect.poll(async () => (await t.get(`/pullzone/${zone!.Id}`)).body.CacheControlMaxAgeOverride).toBe(3600);
    await shoot('pull-zone-settings');
  });

  it('adds an edge rule with a trigger, which the edge then applies', async () => {
    await page.getByRole('link', { name: 'Edge rules' }).click();
    await page.locator('#new-rule-Description').fill('Block the admin pages');
    await page.locator('#new-rule-ActionType').selectOption({ label: 'BlockRequest' });
    await page.getByRole('button', { name: 'Add a trigger' }).click();
    await page.locator('#new-rule-trigger-0-PatternMatches').fill('*/admin/*');
    await page.getByRole('button', { name: 'Add edge rule' }).click();
    await page.getByRole('button', { name: 'Edit Block the admin pages' }).waitFor();
    const [zone] = (await t.get('/pullzone')).body as { Id: number }[];
    const rules = (await t.get(`/pullzone/${zone!.Id}`)).body.EdgeRules;
    expect(rules).toMatchObject([
      { Description: 'Block the admin pages', ActionType: 4, Enabled: true, Triggers: [{ Type: 0, PatternMatches: ['*/admin/*'] }] },
    ]);
    const host = `console-zone.${t.config.cdnDomain}`;
    expect((await edge.get(host, '/admin/users')).status).toBe(403);
  });

  it('purges a URL (the edge fetches it again) and draws the requests just made', async () => {
    const host = `console-zone.${t.config.cdnDomain}`;
    for (let i = 0; i < 4; i++) expect((await edge.get(host, '/a.txt')).status).toBe(200);
    expect((await edge.get(host, '/a.txt')).headers['cdn-cache']).toBe('HIT');

    await page.getByRole('link', { name: 'Purge' }).click();
    await page.getByLabel(/^URL/).fill(`https://${host}/a.txt`);
    await page.getByRole('button', { name: 'Purge URL' }).click();
    await page.getByText('Purged.').waitFor();
    expect((await edge.get(host, '/a.txt')).headers['cdn-cache']).toBe('MISS');

    const [zone] = (await t.get('/pullzone')).body as { Id: number }[];
    const served = (await t.get(`/statistics?pullZone=${zone!.Id}`)).body.TotalRequestsServed as number;
    // The six just made, and the one the edge rule refused.
    expect(served).toBe(7);
    await page.getByRole('link', { name: 'Statistics' }).click();
    await expect.poll(() => page.getByTestId('total-requests').textContent()).toBe(String(served));
    // Four charts drawn (uPlot's canvases), the requests' one with a non-zero point in its table.
    await expect.poll(() => page.locator('figure.chart canvas').count()).toBe(4);
    const requestsTable = page.locator('figure.chart').first().locator('details tbody td:first-of-type');
    expect((await requestsTable.allTextContents()).map(Number).reduce((a, b) => a + b, 0)).toBe(served);
    await shoot('pull-zone-statistics');
  });

  it('uploads a 50 MB file and a small one at once with progress, lists them, downloads the large one byte-exact', async () => {
    await page.getByRole('link', { name: 'Storage zones' }).click();
    await page.getByLabel('Name').fill('console-files');
    await page.getByLabel('Region').selectOption('DE');
    await page.getByRole('button', { name: 'Add storage zone' }).click();
    await page.getByRole('heading', { name: 'Storage zone console-files' }).waitFor();
    const [zone] = (await t.get('/storagezone')).body as { Id: number; Name: string; Password: string }[];
    expect(zone?.Name).toBe('console-files');

    await page.getByLabel('File API address').fill(storage.url);
    await page.getByRole('button', { name: 'Use this address' }).click();
    await page.getByText('This folder is empty.').waitFor();

    const bigDigest = sha256(big);
    const bigPath = join(work, 'big.bin');
    const smallPath = join(work, 'notes.txt');
    writeFileSync(smallPath, 'small file\n');
    // Every value the progress bars take, as the page sets them.
    await page.evaluate(() => {
      const seen: number[] = [];
      (window as unknown as { progressSeen: number[] }).progressSeen = seen;
      new MutationObserver((changes) => {
        for (const change of changes) {
          const bar = change.target;
          if (bar instanceof HTMLProgressElement && bar.max > 1000) seen.push(bar.value / bar.max);
        }
      }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ['value'] });
    });
    await page.getByLabel('Upload files').setInputFiles([bigPath, smallPath]);
    await page.getByRole('button', { name: 'Download big.bin' }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Download notes.txt' }).waitFor();
    const seen = await page.evaluate(() => (window as unknown as { progressSeen: number[] }).progressSeen);
    expect(seen.some((fraction) => fraction > 0 && fraction < 1)).toBe(true);
    expect(seen.at(-1)).toBe(1);

    // The file API lists both, with the SHA-256 of what it stored.
    const fileApi = files(storage, zone!);
    const listed = (await fileApi.list('')).body.map(({ ObjectName, Length, Checksum }) => ({ ObjectName, Length, Checksum }));
    expect(listed).toEqual([
      { ObjectName: 'big.bin', Length: BIG_FILE_BYTES, Checksum: bigDigest.toUpperCase() },
      { ObjectName: 'notes.txt', Length: 11, Checksum: sha256(Buffer.from('small file\n')).toUpperCase() },
    ]);

    // Streamed: the download worker answers a one-time address of the console (the key went to it by message, not in the address).
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download big.bin' }).click()]);
    expect(download.suggestedFilename()).toBe('big.bin');
    expect(download.url()).toMatch(new RegExp(`^${api}/console/download/[0-9a-f-]{36}$`));
    expect(download.url()).not.toContain(zone!.Password);
    expect(sha256(readFileSync(await download.path()))).toBe(bigDigest);
    await shoot('storage-files');

    await page.getByLabel('New folder name').fill('images');
    await page.getByRole('button', { name: 'Create folder' }).click();
    await page.getByRole('link', { name: 'images/' }).waitFor();
    expect((await fileApi.list('')).body.map((entry) => entry['ObjectName']).sort()).toEqual(['big.bin', 'images', 'notes.txt']);
  });

  it('adds and edits DNS records of three types, imports a zone file, turns DNSSEC on with its DS record', async () => {
    await page.getByRole('link', { name: 'DNS zones' }).click();
    await page.getByLabel('Domain').fill('console-test.com');
    await page.getByRole('button', { name: 'Add DNS zone' }).click();
    await page.getByRole('heading', { name: 'DNS zone console-test.com' }).waitFor();
    const [zone] = (await t.get('/dnszone')).body.Items as { Id: number }[];

    const add = async (type: string, fields: Record<string, string>) => {
      await page.locator('#new-record-Type').selectOption({ label: type });
      for (const [name, value] of Object.entries(fields)) await page.locator(`#new-record-${name}`).fill(value);
      await page.getByRole('button', { name: `Add ${type} record` }).click();
      await page.getByRole('button', { name: `Edit ${type} record ${fields['Name'] || '@'}` }).waitFor();
    };
    await add('A', { Name: 'www', Value: '192.0.2.10', Ttl: '300' });
    await add('MX', { Name: '', Value: 'mail.console-test.com', Priority: '10' });
    await add('TXT', { Name: 'info', Value: 'hello from the console' });

    await page.getByRole('button', { name: 'Edit A record www' }).click();
    const aRecord = (await t.get(`/dnszone/${zone!.Id}`)).body.Records.find((r: { Type: number }) => r.Type === 0);
    await page.locator(`#record-${aRecord.Id}-Value`).fill('192.0.2.20');
    await page.getByRole('button', { name: 'Save A record' }).click();
    await page.getByText('Record saved.').waitFor();

    const records = ((await t.get(`/dnszone/${zone!.Id}`)).body.Records as { Type: number; Name: string; Value: string; Priority: number; Ttl: number }[])
      .map(({ Type, Name, Value, Priority, Ttl }) => ({ Type, Name, Value, Priority, Ttl }))
      .sort((a, b) => a.Type - b.Type);
    expect(records).toMatchObject([
      { Type: 0, Name: 'www', Value: '192.0.2.20', Ttl: 300 },
      { Type: 3, Name: 'info', Value: 'hello from the console' },
      { Type: 4, Name: '', Value: 'mail.console-test.com', Priority: 10 },
    ]);
    await shoot('dns-records');

    await page.getByRole('link', { name: 'Import and export' }).click();
    await page.getByLabel('Zone file', { exact: true }).fill('ftp 300 IN A 192.0.2.30\n');
    await page.getByRole('button', { name: 'Import records' }).click();
    await page.getByText('Added 1, failed 0, skipped 0.').waitFor();
    expect((await t.get(`/dnszone/${zone!.Id}`)).body.Records.map((r: { Name: string }) => r.Name)).toContain('ftp');

    await page.getByRole('link', { name: 'DNSSEC' }).click();
    await page.getByRole('button', { name: 'Turn DNSSEC on' }).click();
    const ds = await page.getByLabel('DS record for the parent zone').inputValue();
    const { body: dnssec } = await t.post(`/dnszone/${zone!.Id}/dnssec`);
    expect(ds).toBe(dnssec.DsRecord);
    expect((await t.get(`/dnszone/${zone!.Id}`)).body.DnsSecEnabled).toBe(true);
  });

  it('uploads a video into a new library with its progress, lists it with its status, opens the player', async () => {
    await page.getByRole('link', { name: 'Video libraries' }).click();
    await page.getByLabel('Name').fill('console-videos');
    await page.getByRole('button', { name: 'Add video library' }).click();
    await page.getByRole('heading', { name: 'Video library console-videos' }).waitFor();
    const [library] = (await t.get('/videolibrary')).body.Items as { Id: number; ApiKey: string }[];

    await page.getByLabel('Video API address').fill(videoUrl);
    await page.getByRole('button', { name: 'Use this address' }).click();
    await page.getByText('No video yet.').waitFor();
    // Not a real video: the upload and the listing are the console's part; encoding is the plane's (test/video-api/).
    const clip = join(work, 'clip.mp4');
    writeFileSync(clip, randomBytes(256 * 1024));
    await page.getByLabel('Title', { exact: true }).fill('First clip');
    await page.getByLabel('Video file').setInputFiles(clip);
    await page.getByRole('button', { name: 'Upload video' }).click();
    await page.getByText('Uploaded: encoding').waitFor();
    expect(await page.locator('#video-upload').getAttribute('value')).toBe(String(256 * 1024));

    const listed = await fetch(`${videoUrl}/library/${library!.Id}/videos`, { headers: { AccessKey: library!.ApiKey } });
    const [stored] = ((await listed.json()) as { items: { guid: string; title: string; status: number; storageSize: number }[] }).items;
    expect(stored).toMatchObject({ title: 'First clip', status: 1 });
    await page.getByRole('cell', { name: 'uploaded' }).waitFor();

    await page.getByRole('button', { name: 'Play First clip' }).click();
    const player = page.frameLocator('iframe[title="Player: First clip"]');
    await player.locator('body').waitFor();
    expect(await page.locator('iframe.player').getAttribute('src')).toBe(`${videoUrl}/embed/${library!.Id}/${stored!.guid}`);
    await page.getByRole('button', { name: 'Play First clip' }).click();

    // A collection, captions, chapters, and the video moved into the collection: each checked by what the video API then answers.
    const videoApi = (path: string) =>
      fetch(`${videoUrl}/library/${library!.Id}${path}`, { headers: { AccessKey: library!.ApiKey } }).then((r) => r.json() as Promise<Record<string, unknown>>);
    await page.locator('#new-collection-name').fill('Trailers');
    await page.getByRole('button', { name: 'Add collection' }).click();
    await page.getByRole('button', { name: 'Delete collection Trailers' }).waitFor();
    const [collection] = (await videoApi('/collections')).items as { guid: string; name: string }[];
    expect(collection?.name).toBe('Trailers');

    await page.getByRole('button', { name: 'Captions, chapters and collection of First clip' }).click();
    const at = `#video-${stored!.guid}`;
    const vtt = join(work, 'english.vtt');
    writeFileSync(vtt, 'WEBVTT\n\n00:00.000 --> 00:02.000\nHello\n');
    await page.locator(`${at}-caption-srclang`).fill('en');
    await page.locator(`${at}-caption-label`).fill('English');
    await page.locator(`${at}-captions-file`).setInputFiles(vtt);
    await page.getByRole('button', { name: 'Upload captions' }).click();
    await page.getByRole('button', { name: 'Delete captions en' }).waitFor();

    await page.getByRole('button', { name: 'Add a chapter' }).click();
    await page.locator(`${at}-chapter-0-title`).fill('Opening');
    await page.locator(`${at}-chapter-0-start`).fill('0');
    await page.locator(`${at}-chapter-0-end`).fill('2');
    await page.getByRole('button', { name: 'Save chapters' }).click();
    await page.getByText('Chapters saved.').waitFor();

    await page.locator(`${at}-move-collectionId`).selectOption({ label: 'Trailers' });
    await page.getByRole('button', { name: 'Move to the collection' }).click();
    await page.getByText('Moved.').waitFor();
    expect(await videoApi(`/videos/${stored!.guid}`)).toMatchObject({
      captions: [{ srclang: 'en', label: 'English' }],
      chapters: [{ title: 'Opening', start: 0, end: 2 }],
      collectionId: collection!.guid,
    });
    await shoot('video-library');

    await page.getByRole('button', { name: 'Delete captions en' }).click();
    await page.getByText('No captions yet.').waitFor();
    expect((await videoApi(`/videos/${stored!.guid}`)).captions).toEqual([]);
  });

  it('creates a container app with its container, environment and port, scales it, edits its container, deletes it', async () => {
    await page.getByRole('link', { name: 'Container apps' }).click();
    // The page is drawn once its own field shows: until then /^Name/ also matches the last page's fields.
    await page.getByLabel('Minimum instances').waitFor();
    await page.getByLabel(/^Name/).fill('console app');
    await page.getByLabel('Minimum instances').fill('1');
    await page.getByLabel('Maximum instances').fill('2');
    await page.getByLabel('Container name').fill('web');
    await page.getByLabel('Container image namespace').fill('library');
    await page.getByRole('textbox', { name: 'Container image name', exact: true }).fill('nginx');
    await page.getByLabel('Container image tag').fill('1.25-alpine');
    await page.getByLabel('Container image registry ID').fill('1');
    await page.getByRole('button', { name: 'Add a variable' }).click();
    await page.locator('#new-app-variable-0-name').fill('MODE');
    await page.locator('#new-app-variable-0-value').fill('prod');
    await page.getByRole('button', { name: 'Add an endpoint' }).click();
    await page.locator('#new-app-endpoint-0-displayName').fill('site');
    await page.locator('[id="new-app-endpoint-0-port.containerPort"]').fill('8080');
    await page.getByRole('button', { name: 'Add container app' }).click();
    await page.getByRole('heading', { name: 'Container app console app' }).waitFor();

    const [listed] = (await t.get('/mc/apps')).body.items as { id: string }[];
    const app = async () => (await t.get(`/mc/apps/${listed!.id}`)).body;
    const created = await app();
    expect(created).toMatchObject({
      name: 'console app',
      runtimeType: 'shared',
      autoScaling: { min: 1, max: 2 },
      containerTemplates: [
        {
          name: 'web',
          image: expect.stringContaining('nginx:1.25-alpine'),
          environmentVariables: [{ name: 'MODE', value: 'prod' }],
          endpoints: [{ displayName: 'site', type: 'cdn', portMappings: [{ containerPort: 8080 }] }],
        },
      ],
    });

    await page.locator('#app-scale-max').fill('3');
    await page.getByRole('button', { name: 'Save scale' }).click();
    await expect.poll(() => page.getByTestId('app-instances').textContent()).toBe('1 to 3');
    expect((await app()).autoScaling).toEqual({ min: 1, max: 3 });

    const container = `#container-${created.containerTemplates[0].id}`;
    await page.locator(`${container}-imageTag`).fill('1.27-alpine');
    await page.locator(`${container}-variable-0-value`).fill('test');
    await page.getByRole('button', { name: 'Save container web' }).click();
    await expect.poll(async () => (await app()).containerTemplates[0].imageTag).toBe('1.27-alpine');
    expect((await app()).containerTemplates[0]).toMatchObject({
      environmentVariables: [{ name: 'MODE', value: 'test' }],
      endpoints: [{ displayName: 'site', portMappings: [{ containerPort: 8080 }] }],
    });
    await shoot('container-app');

    // A second container, then deleted again.
    await page.locator('#new-container-name').fill('worker');
    await page.locator('#new-container-imageNamespace').fill('library');
    await page.locator('#new-container-imageName').fill('busybox');
    await page.locator('#new-container-imageTag').fill('1.36');
    await page.locator('#new-container-imageRegistryId').fill('1');
    await page.getByRole('button', { name: 'Add container', exact: true }).click();
    await page.getByRole('button', { name: 'Save container worker' }).waitFor();
    expect((await app()).containerTemplates.map((c: { name: string; image: string }) => [c.name, c.image])).toEqual([
      ['web', expect.stringContaining('nginx:1.27-alpine')],
      ['worker', expect.stringContaining('busybox:1.36')],
    ]);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete container worker' }).click();
    await expect.poll(async () => (await app()).containerTemplates.length).toBe(1);

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Delete container app console app' }).click();
    await page.getByText('No container application yet.').waitFor();
    expect((await t.get('/mc/apps')).body.items).toEqual([]);
  });

  it('is usable on a narrow screen and fetched nothing from elsewhere', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('link', { name: 'Pull zones' }).click();
    await page.getByRole('link', { name: 'console-zone' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await shoot('pull-zones-narrow', { checkAccessibility: false });
    expect(elsewhere).toEqual([]);
  });
});
