/**
 * A container's CPU time read from its control group's own accounting file, found through its
 * main process (`/proc/<pid>/cgroup`): two small file reads, where `podman stats` is a command
 * (a fork and tens of milliseconds of CPU). cgroup v1 (`cpuacct.usage`, ns) and v2 (`cpu.stat`
 * `usage_usec`). The group's path must name the container, so a process id reused by another
 * process never answers for it.
 */
import { readFile } from 'node:fs/promises';

/** Where cgroup file systems are mounted. */
const CGROUP_ROOT = '/sys/fs/cgroup';

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** The CPU time (ns) the container's group has used, or undefined when it cannot be read here. */
export async function cgroupCpuNs(pid: number, containerId: string, root = CGROUP_ROOT, proc = '/proc'): Promise<number | undefined> {
  const groups = await readText(`${proc}/${pid}/cgroup`);
  if (groups === undefined) return undefined;
  let unified: string | undefined;
  for (const line of groups.split('\n')) {
    const [, controllers, path] = line.split(':', 3) as [string, string | undefined, string | undefined];
    if (path === undefined || !path.includes(containerId)) continue;
    if (controllers === '') unified = path;
    if (controllers?.split(',').includes('cpuacct')) {
      for (const mount of ['cpuacct', 'cpu,cpuacct', 'cpuacct,cpu']) {
        const usage = await readText(`${root}/${mount}${path}/cpuacct.usage`);
        if (usage !== undefined && /^\d+\s*$/.test(usage)) return Number(usage);
      }
    }
  }
  if (unified === undefined) return undefined;
  for (const base of [root, `${root}/unified`]) {
    const stat = await readText(`${base}${unified}/cpu.stat`);
    const usec = stat?.match(/^usage_usec (\d+)$/m)?.[1];
    if (usec !== undefined) return Number(usec) * 1000;
  }
  return undefined;
}
