/**
 * The media runner's overhead: an encode plan run by src/media/run.ts (progress parsing, a probe
 * of each finished rendition for its CODECS, the master playlist rewritten, the outputs listed)
 * against the same ffmpeg commands run by hand, one after another in the same directories, with
 * nothing else. Both at the runner's niceness, alternating, each into a fresh directory. The clip:
 * 10 s of 1280x720 test picture and tone, made by ffmpeg; the plan: a new library's defaults
 * (240p to 720p here, x264, MP4 fallbacks, thumbnails and preview).
 *
 * Also runnable alone: `npx tsx bench/media-encode.ts [runs]`.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { newVideoLibrary } from '../src/domain/video-libraries/defaults.js';
import { findMediaTools } from '../src/media/binaries.js';
import { buildEncodePlan } from '../src/media/plan.js';
import { probe } from '../src/media/probe.js';
import { runEncodePlan } from '../src/media/run.js';
import type { EncodePlan, MediaTools } from '../src/media/types.js';
import { cpuSeconds } from './proc.js';
import type { Target } from './report.js';
import { median, table } from './startup.js';

export interface MediaEncodeReport {
  tools: string;
  clip: string;
  steps: string[];
  runs: number;
  byHandMs: number[];
  runnerMs: number[];
  /** CPU seconds of each run (ffmpeg's and this process's): steadier than wall time on a busy machine. */
  byHandCpu: number[];
  runnerCpu: number[];
}

const RUNNER_NICENESS = 10;

/** One ffmpeg run, as a person would start it (no shell), at the runner's niceness; resolves when it exits. */
function byHand(tools: MediaTools, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(tools.ffmpeg.path, args, { cwd, env: { ...process.env, ...tools.ffmpeg.env }, stdio: 'ignore' });
    child.once('spawn', () => setPriority(child.pid!, RUNNER_NICENESS));
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited with ${code}: ${args.join(' ')}`))));
  });
}

/** CPU seconds this process and its finished children have used. */
function cpuNow(): number {
  return (cpuSeconds(process.pid, 'own') ?? 0) + (cpuSeconds(process.pid, 'children') ?? 0);
}

async function timed(work: () => Promise<unknown>, cpu: number[]): Promise<number> {
  const started = performance.now();
  const cpuBefore = cpuNow();
  await work();
  cpu.push(cpuNow() - cpuBefore);
  return performance.now() - started;
}

function makeClip(tools: MediaTools, path: string): Promise<void> {
  const args = ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30:duration=10', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=10'];
  return byHand(tools, [...args, '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', path], tmpdir());
}

export async function measureMediaEncode(options: { runs: number; log: (message: string) => void }): Promise<MediaEncodeReport> {
  const tools = await findMediaTools({});
  const work = mkdtempSync(join(tmpdir(), 'edgeplane-bench-media-'));
  try {
    const source = join(work, 'clip.mp4');
    await makeClip(tools, source);
    const info = await probe(tools, source);
    const library = newVideoLibrary({
      id: 1,
      name: 'bench',
      pullZoneId: 1,
      storageZoneId: 1,
      replicationRegions: [],
      apiKey: 'k',
      readOnlyApiKey: 'r',
      now: new Date(),
    });
    const planInto = (outputDir: string): EncodePlan => buildEncodePlan({ source, outputDir, info, settings: library, capabilities: tools.capabilities });
    const report: MediaEncodeReport = {
      tools: tools.description,
      clip: `${info.durationSeconds} s ${info.width}x${info.height} at ${info.framerate} fps with audio`,
      steps: planInto(work).steps.map((s) => s.name),
      runs: options.runs,
      byHandMs: [],
      runnerMs: [],
      byHandCpu: [],
      runnerCpu: [],
    };
    for (let run = 0; run < options.runs; run++) {
      const handDir = join(work, `hand-${run}`);
      const hand = planInto(handDir);
      report.byHandMs.push(
        await timed(async () => {
          for (const step of hand.steps) {
            mkdirSync(join(handDir, step.cwd), { recursive: true });
            await byHand(tools, step.args, join(handDir, step.cwd));
          }
        }, report.byHandCpu),
      );
      report.runnerMs.push(await timed(() => runEncodePlan(tools, planInto(join(work, `runner-${run}`))), report.runnerCpu));
      options.log(
        `media encode run ${run + 1}/${options.runs}: by hand ${Math.round(report.byHandMs.at(-1)!)} ms, runner ${Math.round(report.runnerMs.at(-1)!)} ms`,
      );
      rmSync(handDir, { recursive: true, force: true });
      rmSync(join(work, `runner-${run}`), { recursive: true, force: true });
    }
    return report;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export function mediaEncodeTargets(r: MediaEncodeReport): Target[] {
  const ratio = median(r.runnerMs) / median(r.byHandMs);
  const cpu = median(r.runnerCpu) / median(r.byHandCpu);
  return [
    {
      target: 'media runner: whole encode <= 1.15x the same ffmpeg commands by hand (median wall time)',
      measured: `${ratio.toFixed(3)}x (CPU ${cpu.toFixed(3)}x)`,
      met: ratio <= 1.15,
    },
  ];
}

export function renderMediaEncode(r: MediaEncodeReport): string {
  const row = (name: string, ms: number[], cpu: number[]) => [
    name,
    String(Math.round(median(ms))),
    String(Math.round(Math.min(...ms))),
    String(Math.round(Math.max(...ms))),
    median(cpu).toFixed(2),
  ];
  return [
    `Media encode: ${r.clip}, steps ${r.steps.join(', ')} (${r.runs} runs alternating); ${r.tools}`,
    table(
      ['', 'median ms', 'min ms', 'max ms', 'median CPU s'],
      [row('ffmpeg commands by hand', r.byHandMs, r.byHandCpu), row('src/media runner', r.runnerMs, r.runnerCpu)],
    ),
    ...mediaEncodeTargets(r).map((t) => `Target: ${t.target}: ${t.measured}, met: ${t.met ? 'yes' : 'NO'}`),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = await measureMediaEncode({ runs: Number(process.argv[2] ?? 3), log: (m) => process.stderr.write(`${m}\n`) });
  process.stdout.write(`${renderMediaEncode(report)}\n`);
}
