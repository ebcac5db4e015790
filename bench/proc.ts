/**
 * What a server process costs, read from Linux's /proc (memory peaks, CPU time), and what the disk
 * under the store allows.
 */
import { execFileSync } from 'node:child_process';
import { closeSync, fdatasyncSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** A field of /proc/<pid>/status in MiB (`VmHWM` is the peak resident set, `VmRSS` the current one). */
export function statusMb(pid: number, field: 'VmHWM' | 'VmRSS'): number | null {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/**
 * Starts a new peak-RSS window, so each workload reports its own peak rather than the process's
 * lifetime one. Returns false where the kernel does not allow it; the peak is then cumulative.
 */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/**
 * Bytes the process has caused to be read from the storage device (page cache hits excluded): how
 * much of the store did not fit in memory.
 */
export function storageReadBytes(pid: number): number | null {
  try {
    const match = /^read_bytes:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

let ticksPerSecond: number | undefined;

/** User plus system CPU seconds the process has used so far (or its waited-for children have, `children`). */
export function cpuSeconds(pid: number, whose: 'own' | 'children' = 'own'): number | null {
  ticksPerSecond ??= readTicksPerSecond();
  try {
    // The command name may hold spaces or parentheses; the fields after its closing one are fixed.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const first = whose === 'own' ? 11 : 13;
    return (Number(fields[first]) + Number(fields[first + 1])) / ticksPerSecond;
  } catch {
    return null;
  }
}

function readTicksPerSecond(): number {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}

/**
 * Appends-and-syncs 4 KiB blocks in `dir` for up to `seconds` (at most `max` times) and returns
 * the rate. Every acknowledged SQLite write costs one such sync (WAL, synchronous = FULL), so this
 * is the ceiling of one-commit-per-request writes on this disk at this moment.
 */
export function syncsPerSecond(dir: string, seconds = 1, max = 20_000): number {
  const file = join(dir, 'fsync-probe');
  const fd = openSync(file, 'a');
  const block = Buffer.alloc(4096, 1);
  const started = performance.now();
  let done = 0;
  try {
    while (done < max && performance.now() - started < seconds * 1000) {
      writeSync(fd, block);
      fdatasyncSync(fd);
      done++;
    }
  } finally {
    closeSync(fd);
    rmSync(file, { force: true });
  }
  return done / ((performance.now() - started) / 1000);
}
