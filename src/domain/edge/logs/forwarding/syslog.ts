/**
 * A forwarded line as an RFC 5424 syslog message, and its octet-counting frame for TCP and TLS
 * (RFC 6587 §3.4.1: `<length> <message>`, so a line may hold any byte). The zone's
 * `LogForwardingToken` travels in a structured-data element, where collectors that take tokens
 * look for it; the line, plain or JSON, is the message.
 */
import { hostname } from 'node:os';

/** local0.info: facility 16, severity 6 (RFC 5424 §6.2.1). */
const PRIORITY = '<134>';
/** RFC 5612's enterprise number for documentation: the element's name is edgeplane's own. */
export const TOKEN_ELEMENT = 'edgeplane@32473';
const APP_NAME = 'edgeplane';
const MSG_ID = 'access';

/** The HOSTNAME field: printable ASCII without spaces, at most 255 characters (RFC 5424 §6.2.4). */
export const SYSLOG_HOSTNAME =
  hostname()
    .replace(/[^\x21-\x7e]/g, '')
    .slice(0, 255) || '-';

/** `<134>1 2026-01-01T00:00:00.000Z host edgeplane - access [edgeplane@32473 token="…"] <line>`. */
export function syslogMessage(line: string, token: string | null, at: Date, host = SYSLOG_HOSTNAME): string {
  return syslogHead(tokenData(token), at.toISOString(), host) + line;
}

/** A message's STRUCTURED-DATA: the token's element, or `-` without one. */
export function tokenData(token: string | null): string {
  return token === null || token === '' ? '-' : `[${TOKEN_ELEMENT} token="${escapeParam(token)}"]`;
}

/** What comes before the line: the header (`time` as ISO 8601) and the structured data, then a space. */
export function syslogHead(data: string, time: string, host = SYSLOG_HOSTNAME): string {
  return `${PRIORITY}1 ${time} ${host} ${APP_NAME} - ${MSG_ID} ${data} `;
}

/** A PARAM-VALUE: `"`, `\` and `]` escaped with a backslash (RFC 5424 §6.3.3). */
const escapeParam = (value: string) => value.replace(/["\\\]]/g, '\\$&');

/** RFC 6587 octet counting: the message's length in bytes, a space, the message. */
export function octetCounted(message: string): string {
  return `${Buffer.byteLength(message)} ${message}`;
}
