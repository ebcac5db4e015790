/**
 * What scripts did, from what really ran: the runtime counts each request a script answered, the
 * CPU time its process used for it and the requests that failed (runtime/instances.ts), into the
 * usage counters of subject `edgeScript:<id>`; the scripting API's statistics and the script
 * model's month figures are read from them.
 */
import type { EdgeScriptStatisticsQueryT, EdgeScriptStatisticsT } from '../../../schemas/edge-scripts.js';
import { chartOf, periodOf, total } from '../../usage/charts.js';
import type { UsageRecorder } from '../../usage/recorder.js';
import type { Clock, Principal } from '../../principal.js';
import type { EdgeScriptService, MonthFigures } from './service.js';

export const scriptSubject = (id: number) => `edgeScript:${id}`;
export const SCRIPT_REQUESTS = 'script.requests';
export const SCRIPT_CPU_MS = 'script.cpuMs';
export const SCRIPT_ERRORS = 'script.errors';

/** One request a script handled, as the runtime measured it. */
export interface ScriptRun {
  scriptId: number;
  cpuMs: number;
  failed: boolean;
}

export class EdgeScriptStatistics {
  constructor(
    private readonly usage: UsageRecorder,
    private readonly clock: Clock,
  ) {}

  /** Counts a request a script handled (called by the runtime for each). */
  record(run: ScriptRun): void {
    const subject = scriptSubject(run.scriptId);
    this.usage.add(subject, SCRIPT_REQUESTS, 1);
    if (run.cpuMs > 0) this.usage.add(subject, SCRIPT_CPU_MS, run.cpuMs);
    if (run.failed) this.usage.add(subject, SCRIPT_ERRORS, 1);
  }

  async month(scriptId: number): Promise<MonthFigures> {
    const now = this.clock();
    const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
    const entries = await this.usage.series(scriptSubject(scriptId), [SCRIPT_REQUESTS, SCRIPT_CPU_MS], from, now);
    const sum = (metric: string) => entries.filter((e) => e.metric === metric).reduce((s, e) => s + e.value, 0);
    return { requests: sum(SCRIPT_REQUESTS), cpuMs: sum(SCRIPT_CPU_MS) };
  }

  async of(scripts: EdgeScriptService, principal: Principal, id: number, query: EdgeScriptStatisticsQueryT): Promise<EdgeScriptStatisticsT> {
    await scripts.doc(scripts.store, principal.accountId, id);
    const period = periodOf(query.dateFrom, query.dateTo, this.clock(), query.hourly);
    const entries = await this.usage.series(scriptSubject(id), [SCRIPT_REQUESTS, SCRIPT_CPU_MS], period.from, period.to);
    const requests = chartOf(
      entries.filter((e) => e.metric === SCRIPT_REQUESTS),
      period,
    );
    const cpu = chartOf(
      entries.filter((e) => e.metric === SCRIPT_CPU_MS),
      period,
    );
    const average: Record<string, number> = {};
    for (const point in requests) average[point] = requests[point]! > 0 ? cpu[point]! / requests[point]! : 0;
    const totalRequests = total(requests);
    const totalCpu = total(cpu);
    return {
      TotalRequestsServed: totalRequests,
      TotalCpuUsed: totalCpu,
      TotalMonthlyCost: 0,
      AverageCpuTimePerExecution: totalRequests > 0 ? totalCpu / totalRequests : 0,
      RequestsServedChart: requests,
      AverageCpuTimeChart: average,
      TotalCpuTimeChart: cpu,
    };
  }
}
