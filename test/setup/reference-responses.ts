/**
 * Every JSON answer a test's app sends is checked against the platform's reference response schema
 * (test/helpers/reference-check.ts), and the test fails on a mismatch: the responses the suite
 * produces cover far more cases (empty settings, nulls, every error path) than shape tests would.
 *
 * Fastify announces each new instance on a diagnostics channel before any route exists, so the
 * check reaches every app a test builds (createTestApp, or buildApp directly) without a line in
 * src/. Answers of spawned server processes are not seen.
 *
 * EDGEPLANE_REFERENCE_STATS=<file> appends, per test file, how many answers were checked and why
 * the others were not.
 */
import { appendFileSync } from 'node:fs';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, expect } from 'vitest';
import { checkAnswer } from '../helpers/reference-check.js';

const CHANNEL = 'fastify.initialization';
const problems = new Map<string, { count: number; test: string }>();
const counts: Record<string, number> = { checked: 0 };

function watch(message: unknown): void {
  const { fastify } = message as { fastify: FastifyInstance };
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const outcome = checkAnswer({
      method: request.method,
      route: request.routeOptions.url,
      status: reply.statusCode,
      contentType: reply.getHeader('content-type')?.toString(),
      payload,
    });
    const tally = outcome.checked ? 'checked' : `${outcome.reason} (${String(reply.statusCode)[0]}xx)`;
    counts[tally] = (counts[tally] ?? 0) + 1;
    for (const problem of outcome.checked ? outcome.problems : []) {
      const seen = problems.get(problem);
      if (seen) seen.count++;
      else problems.set(problem, { count: 1, test: expect.getState().currentTestName ?? '(outside a test)' });
    }
    done(null, payload);
  });
}

// A worker that runs several files loads this once per file: one subscriber at a time.
const previous = Symbol.for('edgeplane.reference-responses');
const global = globalThis as { [previous]?: (message: unknown) => void };
if (global[previous]) unsubscribe(CHANNEL, global[previous]);
global[previous] = watch;
subscribe(CHANNEL, watch);

/** The mismatches recorded since the last call, one line each; they no longer fail the test. */
export function takeMismatches(): string[] {
  const lines = [...problems].map(([problem, { count, test }]) => `- ${problem} [${count}x, first in "${test}"]`);
  problems.clear();
  return lines;
}

function failOnMismatches(): void {
  const lines = takeMismatches();
  if (lines.length > 0) throw new Error(`Answers do not match the reference's response schemas:\n${lines.join('\n')}`);
}

afterEach(failOnMismatches);
afterAll(() => {
  const file = process.env['EDGEPLANE_REFERENCE_STATS'];
  if (file) appendFileSync(file, `${JSON.stringify({ file: expect.getState().testPath, project: process.env['TEST_STORE'], ...counts })}\n`);
  failOnMismatches();
});
