/**
 * Autoscaling on load, as the platform describes it: the replicas' CPU use is kept within an
 * optimal span of their CPU limit. Above the span's top the application gets replicas (up to
 * `autoScaling.max`), enough to bring the use back to the span's middle; below its bottom it
 * loses replicas (down to `autoScaling.min`). A decision needs the whole of its window to agree:
 * every sample of the last `upWindowMs` above the span to scale up, of the last `downWindowMs`
 * below it to scale down, counted from the last change (samples taken before replicas were added
 * or removed, or while some were still starting, say nothing of the new count). `decideReplicas` is
 * pure; `Autoscaler` keeps each application's count and samples.
 */

export interface ScalePolicy {
  /** How long every sample must be above the span before replicas are added (ms). */
  upWindowMs: number;
  /** How long every sample must be below the span before replicas are removed (ms). */
  downWindowMs: number;
  /** The span's bottom and top, as fractions of the replicas' CPU limit. */
  lower: number;
  upper: number;
}

/** The span: edgeplane's choice (the platform publishes no figures). */
export const CPU_SPAN = { lower: 0.3, upper: 0.8 } as const;

/** A measurement of an application's load: the CPU its busiest template's started replicas used, on average, as a fraction of their limit. */
export interface LoadSample {
  at: number;
  cpu: number;
}

export interface ScaleInput {
  /** Replicas each template runs now. */
  current: number;
  min: number;
  max: number;
  /** Oldest first. */
  samples: readonly LoadSample[];
  /** When the count last changed, or a replica last was still starting (epoch ms). */
  since: number;
  now: number;
  policy: ScalePolicy;
}

export interface ScaleDecision {
  replicas: number;
  /** Why it changed; undefined when it did not. */
  reason: string | undefined;
}

const percent = (fraction: number) => `${Math.round(fraction * 100)}%`;

/** The replicas an application should run for its recent load (see the module's comment). */
export function decideReplicas(input: ScaleInput): ScaleDecision {
  const { current, now, policy } = input;
  const min = Math.max(1, input.min);
  const max = Math.max(min, input.max);
  if (current < min) return { replicas: min, reason: `autoScaling.min is ${min}` };
  if (current > max) return { replicas: max, reason: `autoScaling.max is ${max}` };
  const middle = (policy.lower + policy.upper) / 2;
  const within = (windowMs: number) => {
    if (now - input.since < windowMs) return undefined;
    const recent = input.samples.filter((s) => s.at > input.since && s.at > now - windowMs);
    // At least two samples: one alone may be a blip, or the only one left of a sampler that stopped.
    return recent.length >= 2 ? recent : undefined;
  };
  const mean = (samples: readonly LoadSample[]) => samples.reduce((sum, s) => sum + s.cpu, 0) / samples.length;
  const up = within(policy.upWindowMs);
  if (up && current < max && up.every((s) => s.cpu > policy.upper)) {
    const load = mean(up);
    const replicas = Math.min(max, Math.max(current + 1, Math.ceil((current * load) / middle)));
    return { replicas, reason: `CPU ${percent(load)} of the limit for ${policy.upWindowMs / 1000} s (above ${percent(policy.upper)})` };
  }
  const down = within(policy.downWindowMs);
  if (down && current > min && down.every((s) => s.cpu < policy.lower)) {
    const load = mean(down);
    const replicas = Math.max(min, Math.min(current - 1, Math.ceil((current * load) / middle)));
    return { replicas, reason: `CPU ${percent(load)} of the limit for ${policy.downWindowMs / 1000} s (below ${percent(policy.lower)})` };
  }
  return { replicas: current, reason: undefined };
}

interface AppScale {
  replicas: number;
  since: number;
  /** The samples since `since`, oldest first. */
  samples: LoadSample[];
  /** The last sample, kept across changes (what the overview shows). */
  last: LoadSample | undefined;
}

/** Each application's replica count, moved by its samples (decideReplicas). */
export class Autoscaler {
  private readonly apps = new Map<string, AppScale>();

  constructor(private readonly policy: ScalePolicy) {}

  /**
   * The replicas each template of the application runs, within `min`…`max`: at first `running`
   * (what a previous run left; none: `min`), then what its load decided.
   */
  replicasOf(appId: string, min: number, max: number, now: number, running = 0): number {
    const low = Math.max(1, min);
    const high = Math.max(low, max);
    const app = this.apps.get(appId);
    if (!app) {
      const first = Math.min(high, Math.max(low, running));
      this.apps.set(appId, { replicas: first, since: now, samples: [], last: undefined });
      return first;
    }
    const bounded = Math.min(high, Math.max(low, app.replicas));
    if (bounded !== app.replicas) this.changed(app, bounded, now);
    return bounded;
  }

  /** The count the last decision left (undefined before the application was seen). */
  current(appId: string): number | undefined {
    return this.apps.get(appId)?.replicas;
  }

  /** The last sample of the application's load (undefined before one was taken). */
  lastLoad(appId: string): LoadSample | undefined {
    return this.apps.get(appId)?.last;
  }

  /**
   * A sample of the application's load, or undefined when a replica is still starting (the window
   * starts over). Resolves what the application should run now, and why when that changed.
   */
  record(appId: string, sample: LoadSample | undefined, min: number, max: number, now: number): ScaleDecision {
    const current = this.replicasOf(appId, min, max, now);
    const app = this.apps.get(appId)!;
    if (!sample) {
      app.since = now;
      app.samples = [];
      return { replicas: current, reason: undefined };
    }
    app.samples.push(sample);
    app.last = sample;
    const kept = now - Math.max(this.policy.upWindowMs, this.policy.downWindowMs);
    while (app.samples.length > 0 && app.samples[0]!.at <= kept) app.samples.shift();
    const decision = decideReplicas({ current, min, max, samples: app.samples, since: app.since, now, policy: this.policy });
    if (decision.replicas !== current) this.changed(app, decision.replicas, now);
    return decision;
  }

  forget(appId: string): void {
    this.apps.delete(appId);
  }

  private changed(app: AppScale, replicas: number, now: number): void {
    app.replicas = replicas;
    app.since = now;
    app.samples = [];
  }
}
