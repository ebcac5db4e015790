/**
 * The embed page's static files: its player script and stylesheet (assets/player/, shipped with
 * the package) and the HLS player library (hls.js's light build, from node_modules: no in-playlist
 * subtitles, no DRM; captions are the page's own tracks). Read on the first page served, once per
 * app; each is addressed by its digest (`/_player/{digest}/{name}`), so browsers keep it for a year
 * and a new version is a new address.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { packageRoot } from '../../../package-root.js';

export interface PlayerAsset {
  bytes: Buffer;
  contentType: string;
  /** First 16 hex digits of its SHA-256: part of its address. */
  digest: string;
  /** `/_player/{digest}/{name}`. */
  path: string;
}

export type PlayerAssetName = 'player.js' | 'player.css' | 'hls.light.min.js';

export const PLAYER_ASSETS_PREFIX = '/_player';

const SOURCES: Record<PlayerAssetName, { file: () => string; contentType: string }> = {
  'player.js': { file: () => join(packageRoot(), 'assets', 'player', 'player.js'), contentType: 'text/javascript; charset=utf-8' },
  'player.css': { file: () => join(packageRoot(), 'assets', 'player', 'player.css'), contentType: 'text/css; charset=utf-8' },
  'hls.light.min.js': {
    file: () => createRequire(import.meta.url).resolve('hls.js/dist/hls.light.min.js'),
    contentType: 'text/javascript; charset=utf-8',
  },
};

export class PlayerAssets {
  private loaded: Promise<Map<PlayerAssetName, PlayerAsset>> | undefined;

  /** Every asset, read once (a failed read is tried again next time). */
  all(): Promise<Map<PlayerAssetName, PlayerAsset>> {
    this.loaded ??= load().catch((error: unknown) => {
      this.loaded = undefined;
      throw error;
    });
    return this.loaded;
  }

  /** The asset at `/_player/{digest}/{name}`, when that is the current one. */
  async find(digest: string, name: string): Promise<PlayerAsset | undefined> {
    const asset = (await this.all()).get(name as PlayerAssetName);
    return asset?.digest === digest ? asset : undefined;
  }
}

async function load(): Promise<Map<PlayerAssetName, PlayerAsset>> {
  const entries = await Promise.all(
    (Object.entries(SOURCES) as [PlayerAssetName, (typeof SOURCES)[PlayerAssetName]][]).map(async ([name, source]) => {
      const bytes = await readFile(source.file());
      const digest = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
      return [name, { bytes, contentType: source.contentType, digest, path: `${PLAYER_ASSETS_PREFIX}/${digest}/${name}` }] as const;
    }),
  );
  return new Map(entries);
}
