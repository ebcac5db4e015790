/**
 * Runs ffmpeg or ffprobe as a child process: no shell (arguments as an array), stdin closed, at a
 * lower scheduling priority than the server, killed when the caller aborts. Memory stays bounded
 * whatever the tool prints: stderr keeps its last lines only, stdout is either read line by line
 * or collected up to a limit.
 */
import { spawn } from 'node:child_process';
import { setPriority } from 'node:os';
import { MediaProcessError, MediaToolsMissingError } from './errors.js';

const LIMITS = {
  /** Last stderr lines kept for an error message, and the most characters kept of each. */
  stderrLines: 12,
  stderrLineChars: 400,
  /** A longer stdout line (no progress line is) is cut: a partial line never grows without bound. */
  stdoutLineChars: 4096,
  /** Niceness of the tools: encoding yields the processor to the server's requests. */
  niceness: 10,
};

export interface ToolRun {
  /** Path of the binary. */
  tool: string;
  args: string[];
  /** What the run makes, for error messages. */
  step: string;
  cwd?: string;
  /** Added to process.env. */
  env?: Record<string, string>;
  signal?: AbortSignal;
  /** Called with each stdout line; without it stdout is collected (up to `maxStdoutBytes`) and returned. */
  onStdoutLine?: (line: string) => void;
  maxStdoutBytes?: number;
}

/** Keeps the last lines of a stream, each cut to a length: what an error message quotes. */
class LineTail {
  readonly lines: string[] = [];
  private partial = '';

  constructor(
    private readonly keep: number,
    private readonly maxChars: number,
    private readonly onLine?: (line: string) => void,
  ) {}

  push(chunk: string): void {
    const parts = (this.partial + chunk).split('\n');
    this.partial = parts.pop()!.slice(0, this.maxChars);
    for (const line of parts) this.add(line);
  }

  end(): void {
    if (this.partial !== '') this.add(this.partial);
    this.partial = '';
  }

  private add(raw: string): void {
    const line = raw.replace(/\r$/, '').slice(0, this.maxChars);
    this.onLine?.(line);
    if (this.keep === 0 || line.trim() === '') return;
    this.lines.push(line);
    if (this.lines.length > this.keep) this.lines.shift();
  }
}

/** Runs the tool to its end; resolves with its collected stdout, rejects with MediaProcessError or the abort reason. */
export function runTool(run: ToolRun): Promise<string> {
  const { signal } = run;
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const child = spawn(run.tool, run.args, {
      cwd: run.cwd,
      env: run.env ? { ...process.env, ...run.env } : process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stderr = new LineTail(LIMITS.stderrLines, LIMITS.stderrLineChars);
    const stdoutLines = run.onStdoutLine ? new LineTail(0, LIMITS.stdoutLineChars, run.onStdoutLine) : null;
    const maxStdout = run.maxStdoutBytes ?? 8 * 1024 * 1024;
    const collected: Buffer[] = [];
    let collectedBytes = 0;
    let failure: unknown = null;
    const kill = (reason: unknown) => {
      failure ??= reason;
      child.kill('SIGKILL');
    };
    const onAbort = () => kill(signal!.reason);
    signal?.addEventListener('abort', onAbort, { once: true });

    child.once('spawn', () => {
      try {
        setPriority(child.pid!, LIMITS.niceness);
      } catch {
        // Not allowed here (some containers): the run goes on at normal priority.
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
    if (stdoutLines) child.stdout.setEncoding('utf8').on('data', (chunk: string) => stdoutLines.push(chunk));
    else
      child.stdout.on('data', (chunk: Buffer) => {
        collectedBytes += chunk.length;
        if (collectedBytes > maxStdout) kill(new MediaProcessError(run.step, null, null, [`printed more than ${maxStdout} bytes`]));
        else collected.push(chunk);
      });
    child.once('error', (error: NodeJS.ErrnoException) => {
      failure ??=
        error.code === 'ENOENT' || error.code === 'EACCES'
          ? new MediaToolsMissingError(`Cannot run ${run.tool} (${error.code}): set EDGEPLANE_FFMPEG / EDGEPLANE_FFPROBE to a working binary.`)
          : error;
    });
    // 'close' comes after 'exit' and after both pipes ended: the process is gone and all was read.
    child.once('close', (code, killedBy) => {
      signal?.removeEventListener('abort', onAbort);
      stderr.end();
      stdoutLines?.end();
      if (failure !== null) reject(failure);
      else if (code !== 0) reject(new MediaProcessError(run.step, code, killedBy, stderr.lines));
      else resolve(Buffer.concat(collected).toString('utf8'));
    });
  });
}
