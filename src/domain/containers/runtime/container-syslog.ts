/**
 * Container output as the platform's log forwarding sends it: each line a syslog message, RFC 5424
 * (`<134>1 <time> - - - - - {"log":"…","time":"…"}`, as the platform's documentation shows it) or
 * RFC 3164 (`<134>Nov 30 00:01:24 <host> <tag>: {"log":…}`). The configuration's token is a
 * structured-data parameter in RFC 5424 and a `token` field of the JSON in RFC 3164 (which has no
 * structured data). The messages go out through the edge's log collector (over UDP, one datagram
 * each, or TCP with RFC 6587 octet counting; queued while the collector is down; reached under
 * the origin address policy): output-forwarding.ts.
 */
import type { CollectorOptions } from '../../edge/logs/forwarding/collector.js';
import { SYSLOG_HOSTNAME, tokenData } from '../../edge/logs/forwarding/syslog.js';

export interface ForwardingTarget {
  type: 'SyslogUdp' | 'SyslogTcp';
  endpoint: string;
  port: number;
  format: 'SyslogRfc3164' | 'SyslogRfc5424';
  token: string | null;
}

/** How collectors may be reached (edge/origin/addresses.ts). */
export type CollectorAddresses = Pick<CollectorOptions, 'lookupFor' | 'refusal'>;

export interface OutputLine {
  /** When the container wrote it (epoch ms). */
  at: number;
  line: string;
  /** The container's name. */
  container: string;
  appId: string;
}

/** local0.info (RFC 5424 §6.2.1), the platform's example's priority. */
const PRIORITY = '<134>';
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** RFC 3164's TIMESTAMP: `Mmm dd hh:mm:ss`, the day padded with a space, UTC. */
function bsdTime(at: Date): string {
  const day = String(at.getUTCDate()).padStart(2, ' ');
  const time = at.toISOString().slice(11, 19);
  return `${MONTHS[at.getUTCMonth()]} ${day} ${time}`;
}

/** One line of a container's output as the message the target's format asks for. */
export function containerSyslogMessage(target: Pick<ForwardingTarget, 'format' | 'token'>, out: OutputLine): string {
  const time = new Date(out.at).toISOString();
  if (target.format === 'SyslogRfc5424') {
    const body = JSON.stringify({ log: out.line, time, container: out.container });
    return `${PRIORITY}1 ${time} - - - - ${tokenData(target.token)} ${body}`;
  }
  const body = JSON.stringify({ log: out.line, time, container: out.container, ...(target.token ? { token: target.token } : {}) });
  // TAG: alphanumeric, at most 32 characters (RFC 3164 §4.1.3); application ids are.
  return `${PRIORITY}${bsdTime(new Date(out.at))} ${SYSLOG_HOSTNAME} ${out.appId.replace(/[^A-Za-z0-9]/g, '').slice(0, 32)}: ${body}`;
}
