/** Builds the edge scripts' services once, for the composition root (domain/services.ts). */
import type { Config } from '../../../config.js';
import type { Secrets } from '../../../security/secrets.js';
import type { Store } from '../../../store/types.js';
import type { Clock } from '../../principal.js';
import type { PullZoneService } from '../../pull-zones/service.js';
import type { UsageRecorder } from '../../usage/recorder.js';
import type { OriginAddresses } from '../origin/addresses.js';
import { EdgeScriptService } from './service.js';
import { EdgeScriptSettings } from './settings.js';
import { EdgeScriptStatistics } from './statistics.js';
import { defaultScriptCacheDir } from './runtime/script-modules.js';
import { ScriptRuntime } from './runtime/script-runtime.js';

export interface EdgeScriptsContext {
  store: Store;
  secrets: Secrets;
  clock: Clock;
  config: Config;
  pullZones: PullZoneService;
  usage: UsageRecorder;
  originAddresses: OriginAddresses;
  /** Where the scripts' own messages go (the process's logger). */
  log?: ((fields: Record<string, unknown>, message: string) => void) | undefined;
}

export function buildEdgeScripts(ctx: EdgeScriptsContext) {
  const statistics = new EdgeScriptStatistics(ctx.usage, ctx.clock);
  const scripts = new EdgeScriptService(ctx.store, ctx.secrets, ctx.clock, ctx.pullZones, (id) => statistics.month(id));
  const settings = new EdgeScriptSettings(scripts);
  const { edgeScriptCpuMs: cpuMs, edgeScriptStartupMs: startupMs, edgeScriptMemoryMb: memoryMb } = ctx.config;
  /** Runs the published scripts (started on their first request; `close()` stops them). */
  const runtime = new ScriptRuntime({
    store: ctx.store,
    scripts,
    statistics,
    addresses: ctx.originAddresses,
    limits: { cpuMs, startupMs, memoryMb },
    network: ctx.config.edgeScriptNetwork,
    cacheDir: ctx.config.edgeScriptCacheDir ?? defaultScriptCacheDir(),
    log: ctx.log ?? (() => undefined),
  });
  return { scripts, settings, statistics, runtime };
}

export type EdgeScripts = ReturnType<typeof buildEdgeScripts>;
