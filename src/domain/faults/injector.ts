/**
 * Fault injection: the operator's rules make chosen requests slow, or fail with 429/500/503, so
 * clients can rehearse retries and timeouts against edgeplane. Rules live in memory, per instance.
 */
import { type FaultRuleT, type FaultStatus, ruleProblem } from '../../schemas/faults.js';
import { errors } from '../errors.js';
import { compilePathPattern, type PathMatcher } from './path-pattern.js';

/** What happens to one request: a delay, then (when `status` is set) a failure. */
export interface Fault {
  /** Index of the rule that fired. */
  rule: number;
  latencyMs: number;
  status?: FaultStatus;
  retryAfterSeconds?: number;
}

/** Rate-limited clients are told when to come back; a 429 without the header would leave them guessing. */
const DEFAULT_RETRY_AFTER_SECONDS = 1;

interface CompiledRule {
  rule: FaultRuleT;
  method: string | undefined;
  matches: PathMatcher;
}

export class FaultInjector {
  private rules: CompiledRule[] = [];

  constructor(
    rules: FaultRuleT[] = [],
    private readonly random: () => number = Math.random,
  ) {
    this.replace(rules);
  }

  list(): FaultRuleT[] {
    return this.rules.map((r) => r.rule);
  }

  /** Swaps the whole rule set at once: requests in flight see either the old rules or the new. */
  replace(rules: FaultRuleT[]): FaultRuleT[] {
    rules.forEach((rule, i) => {
      const problem = ruleProblem(rule);
      if (problem) throw errors.validation(`rules[${i}]${problem.field}`, problem.message);
    });
    this.rules = rules.map((rule) => ({ rule, method: rule.method?.toUpperCase(), matches: compilePathPattern(rule.path) }));
    return this.list();
  }

  clear(): void {
    this.rules = [];
  }

  /** False while no rule is in force: the request path skips fault handling entirely. */
  get active(): boolean {
    return this.rules.length > 0;
  }

  /**
   * The fault for a request, if any. Rules are tried in order and each rolls its own probability,
   * so rules can be stacked ("10% 500, else 20% 429"); the first that fires decides.
   */
  decide(method: string, route: string | undefined, path: string): Fault | undefined {
    for (const [index, compiled] of this.rules.entries()) {
      const { rule } = compiled;
      if (compiled.method !== undefined && compiled.method !== method.toUpperCase()) continue;
      if (!compiled.matches(route, path)) continue;
      if (this.random() >= (rule.probability ?? 1)) continue;
      const fault: Fault = { rule: index, latencyMs: rule.latencyMs ?? 0 };
      if (rule.status !== undefined) {
        fault.status = rule.status;
        const retryAfter = rule.retryAfterSeconds ?? (rule.status === 429 ? DEFAULT_RETRY_AFTER_SECONDS : undefined);
        if (retryAfter !== undefined) fault.retryAfterSeconds = retryAfter;
      }
      return fault;
    }
    return undefined;
  }
}
