/**
 * The past of an application, as far as its charts need it. Every write that changes what runs
 * (deploy, undeploy, a rollout, the pod count, the regions, the volumes) appends what the
 * application looked like from then on; the state at any moment is then computed exactly as a
 * read computes it now (lifecycle.ts), so a chart and a read never disagree. Kept for
 * `TIMELINE_RETENTION_MS` and at most `TIMELINE_MAX_ENTRIES` entries; older moments have no record.
 */
import { podRegions } from './placement.js';
import type { ContainerAppDoc, TimelineEntry } from './types.js';
import { stateOf } from './lifecycle.js';
import { reservedPerVolume } from './volumes.js';

export const TIMELINE_RETENTION_MS = 32 * 24 * 3600 * 1000;
export const TIMELINE_MAX_ENTRIES = 500;

function podsPerRegion(doc: ContainerAppDoc): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const region of podRegions(doc)) counts[region] = (counts[region] ?? 0) + 1;
  return counts;
}

const snapshot = (doc: ContainerAppDoc, at: number): TimelineEntry => ({
  at,
  lifecycle: doc.lifecycle,
  containers: doc.containerTemplates.length,
  pods: podsPerRegion(doc),
  volumes: reservedPerVolume(doc),
});

const sameShape = (a: TimelineEntry, b: TimelineEntry) => JSON.stringify({ ...a, at: 0 }) === JSON.stringify({ ...b, at: 0 });

/**
 * The entries of a document; one written before timelines were kept gets a single entry from its
 * last lifecycle change, which is as far back as its present state is known to hold.
 */
export function timelineOf(doc: ContainerAppDoc): TimelineEntry[] {
  return doc.timeline ?? [snapshot(doc, doc.lifecycle.changedAt)];
}

/** `next` with its timeline: the one of `previous` (none for a new application), plus `next` as of `now` when that differs. */
export function recorded(previous: ContainerAppDoc | undefined, next: ContainerAppDoc, now: number): ContainerAppDoc {
  const entries = previous ? timelineOf(previous) : [];
  const entry = snapshot(next, now);
  const last = entries[entries.length - 1];
  if (last && sameShape(last, entry)) return previous?.timeline ? { ...next, timeline: previous.timeline } : { ...next, timeline: entries };
  const kept = [...entries, entry];
  // The entry in force at the start of the retained window stays: it says what ran then.
  let drop = 0;
  while (drop < kept.length - 1 && kept[drop + 1]!.at <= now - TIMELINE_RETENTION_MS) drop++;
  drop = Math.max(drop, kept.length - TIMELINE_MAX_ENTRIES);
  return { ...next, timeline: kept.slice(drop) };
}

/** What ran at one moment: null before the first record. */
export interface Moment {
  instances: number;
  regions: number;
  volumes: Record<string, number>;
}

/** The entry in force at `t`: the last one that began at or before it. */
function entryAt(entries: readonly TimelineEntry[], t: number): TimelineEntry | undefined {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (entries[mid]!.at <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? undefined : entries[lo - 1];
}

/**
 * The moment `t` as the timeline has it. Suspension is left out: it follows the account's balance,
 * which has no history, so the charts show what the application was set to run.
 */
export function momentAt(entries: readonly TimelineEntry[], t: number, delayMs: number): Moment | null {
  const entry = entryAt(entries, t);
  if (!entry) return null;
  const { running } = stateOf(entry.lifecycle, entry.containers, { now: t, delayMs, funded: true });
  const counts = Object.values(entry.pods);
  return {
    instances: running ? counts.reduce((sum, n) => sum + n, 0) : 0,
    regions: running ? counts.filter((n) => n > 0).length : 0,
    volumes: entry.volumes,
  };
}

/** Every moment at which what ran may have changed: the entries, and the ends of their rollouts. */
export function changesOf(entries: readonly TimelineEntry[], delayMs: number): number[] {
  const times = entries.flatMap((e) => [e.at, e.lifecycle.changedAt + delayMs]);
  return [...new Set(times)].sort((a, b) => a - b);
}
