/**
 * The optimizer over real sockets, each image answer decoded by sharp: the query's parameters
 * (size, crop, aspect ratio, adjustments, quality, format), classes and forced classes, the
 * device's max width and quality, WebP by Accept with its own cache key, upscaling, a broken image
 * answered as it is, each variant made once from one origin fetch, and a purge dropping them all;
 * the watermark; CSS and JavaScript minified (and compressed after); the statistics it leaves.
 */
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../helpers/app.js';
import { createPullZone, type EdgePlane, startEdgePlane, startOrigin, type TestOrigin, type TestPullZone } from '../../helpers/edge-plane.js';

const WEBP = { accept: 'image/avif,image/webp,image/*,*/*;q=0.8' };
const PHONE = { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148' };
const OPTIMIZER = { OptimizerEnabled: true, OptimizerEnableManipulationEngine: true };

const STYLE = `/* the site's colours */\n${Array.from({ length: 200 }, (_, i) => `.item-${i} > a:hover {\n  color: #ff0000;\n  margin: 0px 0px 0px 0px;\n}\n`).join('')}`;
const SCRIPT = Array.from(
  { length: 60 },
  (_, i) =>
    `// step ${i}\nfunction addNumbers${i}(firstNumber, secondNumber) {\n  const total = firstNumber + secondNumber;\n  return total;\n}\nconsole.log(addNumbers${i}(1, 2));\n`,
).join('');

let t: TestContext;
let edge: EdgePlane;
let origin: TestOrigin;
let zone: TestPullZone;
const images = new Map<string, Buffer>();

/** A photograph-like image (noise over a gradient): its encoded size follows the quality. */
const photo = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .jpeg({ quality: 95 })
    .toBuffer();

beforeAll(async () => {
  t = await createTestApp();
  images.set('/photo.jpg', await photo(400, 300));
  images.set(
    '/logo.png',
    await sharp({ create: { width: 200, height: 100, channels: 4, background: { r: 0, g: 0, b: 255, alpha: 0.5 } } })
      .png()
      .toBuffer(),
  );
  for (let i = 0; i < 5; i++) images.set(`/page/${i}.jpg`, await photo(320, 240));
  images.set(
    '/mark.png',
    await sharp({ create: { width: 40, height: 20, channels: 4, background: { r: 255, g: 0, b: 0, alpha: 1 } } })
      .png()
      .toBuffer(),
  );
  images.set(
    '/white.png',
    await sharp({ create: { width: 400, height: 200, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer(),
  );
  origin = await startOrigin((req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    const image = images.get(path);
    const type = path.endsWith('.png') ? 'image/png' : 'image/jpeg';
    if (image) res.writeHead(200, { 'content-type': type, 'cache-control': 'max-age=300' }).end(image);
    else if (path === '/style.css') res.writeHead(200, { 'content-type': 'text/css', 'cache-control': 'max-age=300' }).end(STYLE);
    else if (path === '/app.js') res.writeHead(200, { 'content-type': 'application/javascript', 'cache-control': 'max-age=300' }).end(SCRIPT);
    else if (path === '/varied.jpg')
      res.writeHead(200, { 'content-type': 'image/jpeg', 'cache-control': 'max-age=300', vary: 'Cookie' }).end(images.get('/photo.jpg'));
    else if (path === '/broken.jpg') res.writeHead(200, { 'content-type': 'image/jpeg', 'cache-control': 'max-age=300' }).end('not a JPEG at all');
    else res.writeHead(404, { 'content-type': 'text/plain' }).end('none');
  });
  edge = await startEdgePlane(t);
  zone = await createPullZone(t, 'optimize', origin.url, OPTIMIZER);
});
afterAll(async () => {
  await edge?.close();
  await origin?.close();
  await t?.close();
});

const get = (path: string, headers: Record<string, string> = {}, host = zone.host) => edge.get(host, path, headers);
const decoded = async (body: Buffer) => {
  const meta = await sharp(body).metadata();
  return { format: meta.format, width: meta.width, height: meta.height };
};
const fetchesOf = (path: string) => origin.requests.filter((r) => r.url.split('?')[0] === path).length;

describe('sizes', () => {
  it('resizes to width, height, or the smaller of both, keeping the aspect; the original is asked without the parameters', async () => {
    const res = await get('/photo.jpg?width=100');
    expect([res.status, res.headers['content-type'], res.headers['cdn-cache']]).toEqual([200, 'image/jpeg', 'MISS']);
    expect(await decoded(res.body)).toEqual({ format: 'jpeg', width: 100, height: 75 });
    expect((await get('/photo.jpg?width=100')).headers['cdn-cache']).toBe('HIT');
    expect(await decoded((await get('/photo.jpg?height=60')).body)).toMatchObject({ width: 80, height: 60 });
    expect(await decoded((await get('/photo.jpg?width=200&height=50')).body)).toMatchObject({ width: 67, height: 50 });
    expect(origin.requests.filter((r) => r.url.startsWith('/photo.jpg')).map((r) => r.url)).toEqual(['/photo.jpg']);
  });

  it("enlarges only with upscaling=resampling (or the zone's OptimizerEnableUpscaling)", async () => {
    expect(await decoded((await get('/photo.jpg?width=480')).body)).toMatchObject({ width: 400, height: 300 });
    expect(await decoded((await get('/photo.jpg?width=480&upscaling=resampling')).body)).toMatchObject({ width: 480, height: 360 });
    const upscaling = await createPullZone(t, 'optimize-up', origin.url, { ...OPTIMIZER, OptimizerEnableUpscaling: true });
    expect(await decoded((await get('/photo.jpg?width=480', {}, upscaling.host)).body)).toMatchObject({ width: 480 });
  });

  it("crops in the original's pixels before resizing, by gravity or offset, and to an aspect ratio", async () => {
    expect(await decoded((await get('/photo.jpg?crop=100,50')).body)).toMatchObject({ width: 100, height: 50 });
    expect(await decoded((await get('/photo.jpg?crop=200,100,350,250&crop_gravity=north')).body)).toMatchObject({ width: 50, height: 50 });
    expect(await decoded((await get('/photo.jpg?aspect_ratio=16:9&width=160')).body)).toMatchObject({ width: 160, height: 90 });
    expect(await decoded((await get('/photo.jpg?crop=300,300&width=150')).body)).toMatchObject({ width: 150, height: 150 });
  });

  it("brings an image asked without a size down to the desktop or the mobile max width, at that device's quality", async () => {
    const devices = await createPullZone(t, 'optimize-devices', origin.url, {
      ...OPTIMIZER,
      OptimizerDesktopMaxWidth: 300,
      OptimizerMobileMaxWidth: 160,
      OptimizerImageQuality: 90,
      OptimizerMobileImageQuality: 30,
    });
    const fetched = fetchesOf('/photo.jpg');
    const desktop = await get('/photo.jpg', {}, devices.host);
    expect(await decoded(desktop.body)).toMatchObject({ width: 300, height: 225 });
    const mobile = await get('/photo.jpg', PHONE, devices.host);
    expect(await decoded(mobile.body)).toMatchObject({ width: 160, height: 120 });
    const mobileAt90 = await get('/photo.jpg?width=160&quality=90', PHONE, devices.host);
    expect(mobile.body.length).toBeLessThan(mobileAt90.body.length * 0.7);
    expect(fetchesOf('/photo.jpg') - fetched).toBe(1);
  });
});

describe('formats and quality', () => {
  it('answers WebP to a client that accepts it, with Vary: Accept, and never from the cache to one that does not', async () => {
    const webp = await get('/photo.jpg?width=120', WEBP);
    expect([webp.headers['content-type'], webp.headers['vary']]).toEqual(['image/webp', 'Accept']);
    expect(await decoded(webp.body)).toMatchObject({ format: 'webp', width: 120 });
    const plain = await get('/photo.jpg?width=120');
    expect([plain.headers['content-type'], plain.headers['cdn-cache']]).toEqual(['image/jpeg', 'MISS']);
    expect((await decoded(plain.body)).format).toBe('jpeg');
    expect((await get('/photo.jpg?width=120', WEBP)).headers['cdn-cache']).toBe('HIT');
  });

  it('AVIF where the zone allows it (EnableAvifVary), an asked format over the Accept', async () => {
    const avifZone = await createPullZone(t, 'optimize-avif', origin.url, { ...OPTIMIZER, EnableAvifVary: true });
    const avif = await get('/photo.jpg?width=64', WEBP, avifZone.host);
    expect(avif.headers['content-type']).toBe('image/avif');
    expect((await sharp(avif.body).metadata()).width).toBe(64);
    const png = await get('/photo.jpg?width=64&format=png', WEBP);
    expect([png.headers['content-type'], (await decoded(png.body)).format]).toEqual(['image/png', 'png']);
    const jpeg = await get('/logo.png?output=jpg');
    expect((await decoded(jpeg.body)).format).toBe('jpeg');
  });

  it('a lower quality makes a smaller image', async () => {
    const sizes = [];
    for (const quality of [20, 50, 90]) sizes.push((await get(`/photo.jpg?quality=${quality}`)).body.length);
    expect(sizes[0]).toBeLessThan(sizes[1]!);
    expect(sizes[1]).toBeLessThan(sizes[2]!);
  });
});

describe('adjustments', () => {
  const meanOf = async (body: Buffer) => (await sharp(body).stats()).channels.slice(0, 3).map((c) => Math.round(c.mean));

  it('brightness, contrast, saturation, hue, blur, sharpen, flip and flop change the pixels', async () => {
    const [r] = await meanOf((await get('/photo.jpg?width=50&brightness=-100')).body);
    expect(r).toBeLessThan(10);
    const grey = await meanOf((await get('/logo.png?saturation=-100&format=jpg')).body);
    expect(Math.max(...grey) - Math.min(...grey)).toBeLessThan(4);
    const flat = (await sharp((await get('/photo.jpg?width=50&contrast=-100')).body).stats()).channels[0]!.stdev;
    expect(flat).toBeLessThan(5);
    const blurred = (await sharp((await get('/photo.jpg?width=100&blur=20')).body).stats()).channels[0]!.stdev;
    const sharp0 = (await sharp((await get('/photo.jpg?width=100')).body).stats()).channels[0]!.stdev;
    expect(blurred).toBeLessThan(sharp0 / 2);
    for (const query of ['hue=50', 'sharpen=true', 'flip=true', 'flop=true', 'auto_optimize=high']) {
      const res = await get(`/photo.jpg?width=90&${query}`);
      expect([query, res.status, (await decoded(res.body)).width]).toEqual([query, 200, 90]);
    }
  });

  it('refuses a value out of range with a 400 naming the parameter', async () => {
    for (const query of ['width=abc', 'width=0', 'quality=101', 'crop=10', 'crop_gravity=up', 'brightness=500', 'format=bmp', 'class=nope']) {
      const res = await get(`/photo.jpg?${query}`);
      expect([query, res.status]).toEqual([query, 400]);
    }
  });
});

describe('classes', () => {
  it("applies a class's parameters under the query's own; with forced classes only the class counts", async () => {
    const classes = [{ Name: 'thumb', Properties: { width: '50', quality: '40' } }];
    const open = await createPullZone(t, 'optimize-classes', origin.url, { ...OPTIMIZER, OptimizerClasses: classes });
    expect(await decoded((await get('/photo.jpg?class=thumb', {}, open.host)).body)).toMatchObject({ width: 50 });
    expect(await decoded((await get('/photo.jpg?class=thumb&width=70', {}, open.host)).body)).toMatchObject({ width: 70 });
    const forced = await createPullZone(t, 'optimize-forced', origin.url, { ...OPTIMIZER, OptimizerClasses: classes, OptimizerForceClasses: true });
    expect(await decoded((await get('/photo.jpg?class=thumb&width=70', {}, forced.host)).body)).toMatchObject({ width: 50 });
    expect(await decoded((await get('/photo.jpg?width=70', {}, forced.host)).body)).toMatchObject({ width: 400 });
  });
});

describe('originals', () => {
  it('answers a broken image as it came, read once', async () => {
    const res = await get('/broken.jpg?width=100');
    expect([res.status, res.text]).toEqual([200, 'not a JPEG at all']);
    expect((await get('/broken.jpg?width=100')).headers['cdn-cache']).toBe('HIT');
    expect(edge.core.pipeline.optimizations.broken).toBe(1);
  });

  it('leaves images alone with the optimizer off, the manipulation parameters with the engine off, and an answer varied by a cookie', async () => {
    const off = await createPullZone(t, 'optimize-off', origin.url);
    expect((await get('/photo.jpg?width=100', {}, off.host)).body.equals(images.get('/photo.jpg')!)).toBe(true);
    const engineOff = await createPullZone(t, 'optimize-engine-off', origin.url, { OptimizerEnabled: true, OptimizerEnableManipulationEngine: false });
    expect(await decoded((await get('/photo.jpg?width=100', {}, engineOff.host)).body)).toMatchObject({ width: 400 });
    // An origin varying by a request header the key leaves out: each client's own answer, as it came.
    for (const cookie of ['a=1', 'a=2']) expect(await decoded((await get('/varied.jpg?width=100', { cookie })).body)).toMatchObject({ width: 400 });
  });
});

describe('a page of variants', () => {
  it('makes each of 20 variants of 5 images once, fetching each original once, and a purge drops them all', async () => {
    const page = await createPullZone(t, 'optimize-page', origin.url, OPTIMIZER);
    const before = edge.core.pipeline.optimizations.made;
    const fetched = origin.requests.length;
    const urls = [];
    for (let i = 0; i < 5; i++) for (const width of [40, 80, 120, 160]) urls.push(`/page/${i}.jpg?width=${width}`);
    // Every variant asked three times at once: made once, the others waiting for it.
    const answers = await Promise.all([...urls, ...urls, ...urls].map((url) => get(url, {}, page.host)));
    for (const [i, res] of answers.entries()) expect((await decoded(res.body)).width).toBe([40, 80, 120, 160][i % 4]);
    expect(edge.core.pipeline.optimizations.made - before).toBe(20);
    expect(origin.requests.length - fetched).toBe(5);
    expect((await get(urls[0]!, {}, page.host)).headers['cdn-cache']).toBe('HIT');

    expect((await t.post(`/purge?url=${encodeURIComponent(`https://${page.host}/page/0.jpg`)}`)).status).toBe(200);
    for (const url of urls.slice(0, 4)) expect((await get(url, {}, page.host)).headers['cdn-cache']).toBe('MISS');
    expect((await get(urls[4]!, {}, page.host)).headers['cdn-cache']).toBe('HIT');
    expect(origin.requests.length - fetched).toBe(6);
  });
});

describe('watermark', () => {
  it('is fetched once, placed at its corner with the offset in percent, before the resize, on images above the minimum size', async () => {
    const marked = await createPullZone(t, 'optimize-mark', origin.url, {
      ...OPTIMIZER,
      OptimizerWatermarkEnabled: true,
      OptimizerWatermarkUrl: `${origin.url}/mark.png`,
      OptimizerWatermarkPosition: 1,
      OptimizerWatermarkOffset: 10,
      OptimizerWatermarkMinImageSize: 300,
    });
    const pixel = async (body: Buffer, left: number, top: number) => {
      const { data } = await sharp(body).extract({ left, top, width: 1, height: 1 }).raw().toBuffer({ resolveWithObject: true });
      return [...data.subarray(0, 3)];
    };
    // BottomRight at 10%: 40 px from the right, 20 from the bottom of 400x200; the 40x20 mark covers x 320-359, y 160-179.
    const whole = await get('/white.png?format=png', {}, marked.host);
    expect(await pixel(whole.body, 340, 170)).toEqual([255, 0, 0]);
    expect(await pixel(whole.body, 380, 190)).toEqual([255, 255, 255]);
    expect(await pixel(whole.body, 10, 10)).toEqual([255, 255, 255]);
    // Resized to half after the watermark: the mark is halved with the image.
    const half = await get('/white.png?width=200&format=png', {}, marked.host);
    expect(await pixel(half.body, 170, 85)).toEqual([255, 0, 0]);
    // 320x240 is above 300 in width: marked; the logo (200x100) is not.
    const logo = await get('/logo.png?format=png', {}, marked.host);
    expect(await pixel(logo.body, 170, 85)).not.toEqual([255, 0, 0]);
    expect(fetchesOf('/mark.png')).toBe(1);
  });
});

describe('minification', () => {
  it('minifies CSS and JavaScript once per copy, compressed after as any copy, and leaves them with the settings off', async () => {
    const css = await get('/style.css', { 'accept-encoding': 'identity' });
    expect(css.headers['content-type']).toBe('text/css');
    expect(css.text.length).toBeLessThan(STYLE.length * 0.6);
    expect(css.text).toContain('.item-1>a:hover{color:red;margin:0}');
    const js = await get('/app.js');
    expect(js.body.length).toBeLessThan(SCRIPT.length / 2);
    expect(js.text).not.toContain('firstNumber');
    expect((await get('/app.js')).headers['cdn-cache']).toBe('HIT');
    const gzipped = await get('/style.css', { 'accept-encoding': 'gzip' });
    expect([gzipped.headers['content-encoding'], gzipped.headers['cdn-cache']]).toEqual(['gzip', 'HIT']);
    const plain = await createPullZone(t, 'optimize-plain', origin.url, { ...OPTIMIZER, OptimizerMinifyCSS: false, OptimizerMinifyJavaScript: false });
    expect((await get('/style.css', {}, plain.host)).text).toBe(STYLE);
    expect((await get('/app.js', {}, plain.host)).text).toBe(SCRIPT);
  });
});

describe('statistics', () => {
  it('counts each variant made once, the bytes it saved and the time it took', async () => {
    const day = 24 * 3600_000;
    const period = `dateFrom=${new Date(Date.now() - day).toISOString()}&dateTo=${new Date(Date.now() + day).toISOString()}`;
    const statistics = async () => {
      await t.app.services.usage.flush();
      return (await t.get(`/pullzone/${zone.Id}/optimizer/statistics?${period}`)).body;
    };
    const before = await statistics();
    const variant = await get('/photo.jpg?width=33');
    await get('/photo.jpg?width=33');
    const after = await statistics();
    expect(after.TotalRequestsOptimized - before.TotalRequestsOptimized).toBe(1);
    expect(after.TotalTrafficSaved - before.TotalTrafficSaved).toBe(images.get('/photo.jpg')!.length - variant.body.length);
    expect(after.AverageCompressionRatio).toBeGreaterThan(50);
    expect(after.AverageProcessingTime).toBeGreaterThan(0);
  });
});
