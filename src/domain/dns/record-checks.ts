/**
 * The checks of a record that need more than the record itself (what it links to must exist in
 * the caller's account), and the one way problems become a 400.
 */
import type { DnsRecordRequestT } from '../../schemas/dns.js';
import type { StoreTx } from '../../store/types.js';
import type { EdgeScriptDoc } from '../edge/scripts/types.js';
import { AppError, type FieldProblem } from '../errors.js';

/** Resources a record points at must exist in the caller's account. */
export async function linkProblems(tx: StoreTx, accountId: number, record: DnsRecordRequestT, prefix = ''): Promise<FieldProblem[]> {
  if (record.Type === 7 && record.PullZoneId != null) {
    const pullZone = await tx.docs.get('pullZone', accountId, String(record.PullZoneId));
    if (!pullZone) return [{ field: `${prefix}PullZoneId`, message: `The pull zone ${record.PullZoneId} does not exist.` }];
  }
  if (record.Type === 11 && record.ScriptId != null) {
    const script = await tx.docs.get<EdgeScriptDoc>('edgeScript', accountId, String(record.ScriptId));
    if (!script) return [{ field: `${prefix}ScriptId`, message: `The DNS script ${record.ScriptId} does not exist.` }];
    if (script.doc.ScriptType !== 0) {
      return [{ field: `${prefix}ScriptId`, message: `The script ${record.ScriptId} is not a DNS script (ScriptType 0).` }];
    }
  }
  return [];
}

/** One 400 carrying every problem found, each naming its field. */
export function throwIfAny(problems: FieldProblem[]): void {
  if (problems.length === 0) return;
  const detail = problems.length === 1 ? problems[0]!.message : 'One or more validation errors occurred.';
  throw new AppError('validation', detail, 'validation_error', problems);
}
