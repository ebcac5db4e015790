/** The bounds every script runs within (the platform's limits page; configurable: tests use short ones). */
export interface ScriptLimits {
  /** CPU time a request may use before the script's process is stopped (30 s on the platform). */
  cpuMs: number;
  /** From start to serving (500 ms on the platform). */
  startupMs: number;
  /** The V8 heap of a script's process (128 MB on the platform). */
  memoryMb: number;
  /** fetch calls a request may make (50 on the platform); the next one fails. */
  subrequests?: number;
}

export const PLATFORM_LIMITS: Required<ScriptLimits> = { cpuMs: 30_000, startupMs: 500, memoryMb: 128, subrequests: 50 };

/** Why a script's request failed, and the status the edge answers. */
export type ScriptFailure = { status: 500 | 502 | 503; reason: 'threw' | 'cpu' | 'startup' | 'crashed' | 'unavailable'; message: string };

export const FAILURES = {
  cpu: (ms: number): ScriptFailure => ({ status: 503, reason: 'cpu', message: `The edge script exceeded its CPU time limit (${ms} ms) and was stopped.` }),
  startup: (ms: number): ScriptFailure => ({ status: 503, reason: 'startup', message: `The edge script did not start within its startup limit (${ms} ms).` }),
  crashed: (): ScriptFailure => ({ status: 502, reason: 'crashed', message: "The edge script's runtime ended before it answered." }),
  unavailable: (why: string): ScriptFailure => ({ status: 502, reason: 'unavailable', message: why }),
};
