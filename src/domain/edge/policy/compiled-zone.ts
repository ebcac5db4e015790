/**
 * Everything the policy needs from a zone, compiled once per zone document. The routing layer
 * keeps one object per zone version, so a WeakMap keyed by that object reuses the compiled form
 * for as long as the version serves and drops it with the object.
 */
import type { PullZoneT } from '../../../schemas/pull-zone.js';
import { type AccessCheck, compileAccess } from './access.js';
import { compileResponseSettings, type ResponseSettings } from './response.js';
import type { ActionOptions } from './rules/actions.js';
import { type CompiledRules, compileRules } from './rules/compile.js';

export interface CompiledZone {
  access: AccessCheck | undefined;
  rules: CompiledRules;
  response: ResponseSettings;
  /** True when onRequest has nothing to check: no access settings, no request rules, no token. */
  openRequests: boolean;
  /** True when admit has no limit to apply. */
  unlimited: boolean;
}

export class CompiledZones {
  private readonly cache = new WeakMap<PullZoneT, CompiledZone>();

  constructor(private readonly options: ActionOptions) {}

  of(zone: PullZoneT): CompiledZone {
    let compiled = this.cache.get(zone);
    if (!compiled) {
      compiled = compile(zone, this.options);
      this.cache.set(zone, compiled);
    }
    return compiled;
  }
}

function compile(zone: PullZoneT, options: ActionOptions): CompiledZone {
  const access = compileAccess(zone);
  const rules = compileRules(zone.EdgeRules, options);
  const response = compileResponseSettings(zone);
  return {
    access,
    rules,
    response,
    openRequests: access === undefined && rules.request.length === 0 && !zone.ZoneSecurityEnabled,
    unlimited: zone.RequestLimit <= 0 && zone.ConnectionLimitPerIPCount <= 0 && rules.limits.length === 0,
  };
}
