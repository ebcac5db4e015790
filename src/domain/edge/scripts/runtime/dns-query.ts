/**
 * A DNS script's answer to one query (the platform's Scriptable DNS): the script's process runs
 * its `handleQuery` with the query (runner.js, hook `dns`) and answers records as JSON. The DNS
 * authority asks through this, given to it as a function (services.ts): a Script record's name is
 * answered with what the script returned, per query.
 */
import type { DnsScriptAnswer, DnsScriptQuery } from '../../../dns/serving/types.js';
import type { ScriptRuntime } from './script-runtime.js';

/** More than any answer of a few records needs: a script answering more is cut off (a failure). */
const MAX_ANSWER_BYTES = 64 * 1024;
const TYPES = new Set(['A', 'AAAA', 'CNAME', 'TXT', 'PULLZONE']);

/** A resolver gives up on a server after a few seconds: a script that waits longer (on a fetch, a timer) answers SERVFAIL. */
const ANSWER_WITHIN_MS = 5000;

type DnsOutcome = { ok: true; answers: DnsScriptAnswer[] } | { ok: false; message: string };

/**
 * The script's records, or why there are none (the query is then answered SERVFAIL). `variables`
 * are the Script record's: the script reads them as environment variables (`Deno.env.get`,
 * `process.env`) while it answers this query (runner.js), over its own of the same name.
 */
export async function askDnsScript(
  scripts: ScriptRuntime,
  accountId: number,
  scriptId: number,
  query: DnsScriptQuery,
  variables: Record<string, string> = {},
): Promise<DnsOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<DnsOutcome>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, message: `The DNS script did not answer within ${ANSWER_WITHIN_MS} ms.` }), ANSWER_WITHIN_MS);
  });
  try {
    return await Promise.race([ask(scripts, accountId, scriptId, query, variables), late]);
  } finally {
    clearTimeout(timer);
  }
}

async function ask(scripts: ScriptRuntime, accountId: number, scriptId: number, query: DnsScriptQuery, env: Record<string, string>): Promise<DnsOutcome> {
  const outcome = await scripts.run(accountId, scriptId, { hook: 'dns', query, env }, {}, undefined);
  if (!outcome.ok) return { ok: false, message: outcome.failure.message };
  // Made another type since its record was added: it is not asked (a record names a DNS script when it is written).
  if (outcome.scriptType !== 0) {
    outcome.response.destroy();
    return { ok: false, message: `The script ${scriptId} is not a DNS script.` };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of outcome.response as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_ANSWER_BYTES) {
      outcome.response.destroy();
      return { ok: false, message: 'The DNS script answered too much.' };
    }
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (outcome.response.statusCode !== 200) return { ok: false, message: text.slice(0, 200) || `The DNS script failed (${outcome.response.statusCode}).` };
  try {
    const parsed = JSON.parse(text) as { answers?: unknown };
    const answers = Array.isArray(parsed.answers) ? parsed.answers : [];
    return { ok: true, answers: answers.filter(isAnswer) };
  } catch {
    return { ok: false, message: 'The DNS script answered something that is not JSON.' };
  }
}

function isAnswer(value: unknown): value is DnsScriptAnswer {
  const a = value as DnsScriptAnswer;
  return typeof a === 'object' && a !== null && TYPES.has(a.type) && typeof a.value === 'string' && typeof a.ttl === 'number';
}
