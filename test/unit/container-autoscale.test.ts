/**
 * Autoscaling's decision (domain/containers/runtime/autoscale.ts): replicas added when every
 * sample of the up window is above the CPU span, removed when every sample of the down window is
 * below it, enough to bring the load back to the span's middle, within min…max; nothing decided
 * on a window not yet whole since the last change. And the container CPU reader (cgroup-cpu.ts)
 * on fake cgroup v1 and v2 trees.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Autoscaler, CPU_SPAN, decideReplicas, type LoadSample, type ScaleInput } from '../../src/domain/containers/runtime/autoscale.js';
import { cgroupCpuNs } from '../../src/domain/containers/runtime/cgroup-cpu.js';

const policy = { upWindowMs: 1000, downWindowMs: 4000, ...CPU_SPAN };

/** Samples every 250 ms from `from` to `to` (inclusive), each `cpu`. */
function samples(from: number, to: number, cpu: number | ((at: number) => number)): LoadSample[] {
  const out: LoadSample[] = [];
  for (let at = from; at <= to; at += 250) out.push({ at, cpu: typeof cpu === 'number' ? cpu : cpu(at) });
  return out;
}

const decide = (input: Partial<ScaleInput> & Pick<ScaleInput, 'samples'>) =>
  decideReplicas({ current: 1, min: 1, max: 5, since: 0, now: 10_000, policy, ...input });

describe('decideReplicas', () => {
  it('keeps the count while the load is within the span', () => {
    expect(decide({ current: 2, samples: samples(5000, 10_000, 0.5) })).toEqual({ replicas: 2, reason: undefined });
  });

  it('adds replicas when the whole up window is above the span, enough to bring the load to its middle', () => {
    // 1 replica at 95%: 0.95 / 0.55 → 2.
    const one = decide({ samples: samples(9000, 10_000, 0.95) });
    expect(one.replicas).toBe(2);
    expect(one.reason).toMatch(/CPU 95% of the limit for 1 s \(above 80%\)/);
    // 2 replicas at 100%: 2 × 1 / 0.55 → 4.
    expect(decide({ current: 2, samples: samples(9000, 10_000, 1) }).replicas).toBe(4);
    // Just above the span: one more at least.
    expect(decide({ current: 3, samples: samples(9000, 10_000, 0.81) }).replicas).toBe(5);
    expect(decide({ current: 4, samples: samples(9000, 10_000, 0.81) }).replicas).toBe(5);
  });

  it('never goes above max, nor adds at max', () => {
    expect(decide({ current: 2, max: 3, samples: samples(9000, 10_000, 1) }).replicas).toBe(3);
    expect(decide({ current: 3, max: 3, samples: samples(9000, 10_000, 1) })).toEqual({ replicas: 3, reason: undefined });
  });

  it('does not add for one sample above the span, nor for a window not yet whole', () => {
    // One spike among samples within the span.
    expect(decide({ samples: samples(9000, 10_000, (at) => (at === 9500 ? 1 : 0.5)) }).replicas).toBe(1);
    // High only for the last half second of a one second window.
    expect(decide({ samples: samples(5000, 10_000, (at) => (at > 9500 ? 1 : 0.5)) }).replicas).toBe(1);
    // Changed 600 ms ago: the window is not whole since.
    expect(decide({ since: 9400, samples: samples(9500, 10_000, 1) }).replicas).toBe(1);
    // A single sample in the window: not enough to act on.
    expect(decide({ samples: [{ at: 9800, cpu: 1 }] }).replicas).toBe(1);
    // Samples older than the last change say nothing of the new count.
    expect(decide({ since: 8000, samples: samples(5000, 8000, 1) }).replicas).toBe(1);
  });

  it('removes replicas only after the whole, longer down window is below the span, down to min', () => {
    // Idle for 4 s: straight to min.
    const idle = decide({ current: 4, samples: samples(6000, 10_000, 0.01) });
    expect(idle.replicas).toBe(1);
    expect(idle.reason).toMatch(/CPU 1% of the limit for 4 s \(below 30%\)/);
    expect(decide({ current: 4, min: 2, samples: samples(6000, 10_000, 0) }).replicas).toBe(2);
    // Under the span but not idle: 4 × 0.25 / 0.55 → 2.
    expect(decide({ current: 4, samples: samples(6000, 10_000, 0.25) }).replicas).toBe(2);
    // One fewer at least: 3 × 0.29 / 0.55 rounds up to 2.
    expect(decide({ current: 3, samples: samples(6000, 10_000, 0.29) }).replicas).toBe(2);
    // Low for 2 s only: the up window would be whole, the down one is not.
    expect(decide({ current: 4, samples: samples(5000, 10_000, (at) => (at > 8000 ? 0 : 0.5)) }).replicas).toBe(4);
    expect(decide({ current: 4, since: 7000, samples: samples(7250, 10_000, 0) }).replicas).toBe(4);
    // Never below min, nothing at min.
    expect(decide({ current: 1, samples: samples(6000, 10_000, 0) })).toEqual({ replicas: 1, reason: undefined });
  });

  it('brings a count outside new limits within them at once', () => {
    expect(decide({ current: 1, min: 3, samples: [] })).toEqual({ replicas: 3, reason: 'autoScaling.min is 3' });
    expect(decide({ current: 5, max: 2, samples: [] })).toEqual({ replicas: 2, reason: 'autoScaling.max is 2' });
    // A max below min is read as min.
    expect(decide({ current: 1, min: 2, max: 1, samples: [] }).replicas).toBe(2);
  });
});

describe('Autoscaler', () => {
  it('starts at min, scales up on a sustained load, and down again only after the down window of idleness', () => {
    const scaler = new Autoscaler(policy);
    expect(scaler.current('a')).toBeUndefined();
    expect(scaler.replicasOf('a', 1, 3, 0)).toBe(1);
    let at = 0;
    const feed = (cpu: number | undefined, until: number) => {
      const decisions = [];
      for (; at <= until; at += 250) decisions.push(scaler.record('a', cpu === undefined ? undefined : { at, cpu }, 1, 3, at));
      return decisions.filter((d) => d.reason !== undefined).map((d) => d.replicas);
    };
    expect(feed(0.5, 3000)).toEqual([]);
    // Hot: 1 → 2 once the up window is whole.
    expect(feed(0.95, 4250)).toEqual([2]);
    expect(scaler.current('a')).toBe(2);
    // While the new replica is not ready nothing is sampled: the window starts over.
    expect(feed(undefined, 5000)).toEqual([]);
    // Still hot with 2: 2 → 3 a whole window later, not before.
    expect(feed(0.95, 6000)).toEqual([3]);
    expect(feed(0.95, 8000)).toEqual([]);
    expect(scaler.lastLoad('a')).toEqual({ at: 8000, cpu: 0.95 });
    // Idle: nothing for 4 s, then straight down to min.
    expect(feed(0, 11_750)).toEqual([]);
    expect(feed(0, 12_250)).toEqual([1]);
    expect(scaler.replicasOf('a', 1, 3, at)).toBe(1);
  });

  it('follows changed limits and forgets an application', () => {
    const scaler = new Autoscaler(policy);
    expect(scaler.replicasOf('a', 1, 3, 0)).toBe(1);
    expect(scaler.replicasOf('a', 3, 3, 10)).toBe(3);
    expect(scaler.replicasOf('a', 1, 2, 20)).toBe(2);
    scaler.forget('a');
    expect(scaler.current('a')).toBeUndefined();
    // What a previous run left, within the limits.
    expect(scaler.replicasOf('b', 1, 3, 0, 2)).toBe(2);
    expect(scaler.replicasOf('c', 1, 3, 0, 5)).toBe(3);
    expect(scaler.replicasOf('d', 2, 3, 0, 0)).toBe(2);
  });
});

describe('cgroupCpuNs', () => {
  const id = 'a'.repeat(64);

  it('reads cgroup v1 cpuacct.usage and v2 cpu.stat of the container named in the process group path, nothing for another', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'edgeplane-cgroup-'));
    try {
      const proc = join(dir, 'proc');
      const root = join(dir, 'cgroup');
      const group = `/libpod_parent/libpod-${id}`;
      await mkdir(join(proc, '10'), { recursive: true });
      await mkdir(join(proc, '20'), { recursive: true });
      await mkdir(join(root, 'cpu,cpuacct', group), { recursive: true });
      await mkdir(join(root, 'machine.slice', `libpod-${id}.scope`), { recursive: true });
      await writeFile(join(proc, '10', 'cgroup'), `4:memory:${group}\n2:cpu,cpuacct:${group}\n0::${group}\n`);
      await writeFile(join(root, 'cpu,cpuacct', group, 'cpuacct.usage'), '23275723\n');
      expect(await cgroupCpuNs(10, id, root, proc)).toBe(23_275_723);
      // Another container's id: the process is not this one's.
      expect(await cgroupCpuNs(10, 'b'.repeat(64), root, proc)).toBeUndefined();
      // cgroup v2 only.
      await writeFile(join(proc, '20', 'cgroup'), `0::/machine.slice/libpod-${id}.scope\n`);
      await writeFile(join(root, 'machine.slice', `libpod-${id}.scope`, 'cpu.stat'), 'usage_usec 1500\nuser_usec 1000\nsystem_usec 500\n');
      expect(await cgroupCpuNs(20, id, root, proc)).toBe(1_500_000);
      // A process that is gone.
      expect(await cgroupCpuNs(30, id, root, proc)).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
