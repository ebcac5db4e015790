/**
 * One access-log line in the platform's formats: the plain pipe-separated line (what the access log
 * keeps and the logging API's first version serves) and the same fields as a JSON object
 * (`LogFormat`/`LogForwardingFormat` = 1). With `EnableExtendedLogging` three fields follow the
 * platform's twelve. A kept line is parsed back into its fields, so one text serves every format.
 */
import type { EdgeZone, ServedEvent } from '../types.js';
import { anonymized } from '../../usage/anonymize.js';

/** The edge's location in the lines: edgeplane serves from one place. */
export const EDGE_LOCATION = 'LOCAL';
/** A dropped client address (`LogAnonymizationType` 1), as the platform writes it. */
export const DROPPED_ADDRESS = '0.0.0.0';

/** The fields of one line, in the platform's order. */
export interface AccessLogLine {
  cacheStatus: 'HIT' | 'MISS';
  status: number;
  /** Epoch milliseconds. */
  timestamp: number;
  bytesSent: number;
  pullZoneId: number;
  remoteIp: string;
  referer: string;
  url: string;
  edgeLocation: string;
  userAgent: string;
  requestId: string;
  countryCode: string;
  /** `EnableExtendedLogging`: the fields the platform adds. */
  extended?: ExtendedFields | undefined;
}

export interface ExtendedFields {
  /** Body bytes written (what `bytesSent` counts too: edgeplane does not count header bytes). */
  bodyBytesSent: number;
  /** The request's Range header (empty when none). */
  range: string;
  /** The scheme of the request's Authorization header (`Basic`, `Bearer`; empty when none): never the credential. */
  authorization: string;
}

/** `HIT|200|1507167062421|412|390|163.172.53.0|-|https://…|LOCAL|Mozilla/5.0…|322b68…|-`: fields cannot hold a `|`. */
export function formatLine(line: AccessLogLine): string {
  const plain = `${line.cacheStatus}|${line.status}|${line.timestamp}|${line.bytesSent}|${line.pullZoneId}|${text(line.remoteIp)}|${text(line.referer)}|${text(line.url)}|${text(line.edgeLocation)}|${text(line.userAgent)}|${text(line.requestId)}|${text(line.countryCode)}`;
  const x = line.extended;
  return x === undefined ? plain : `${plain}|${x.bodyBytesSent}|${text(x.range)}|${text(x.authorization)}`;
}

/** A text field of a line: `-` when empty, a `|` in it written `%7C` (the numbers and the cache status cannot hold one). */
const text = (field: string) => (field === '' ? '-' : field.includes('|') ? field.replaceAll('|', '%7C') : field);
/** A text field read back: `-` is empty. */
const untext = (field: string | undefined) => (field === undefined || field === '-' ? '' : field);

/**
 * An answer's plain line, made at once: what `formatLine(lineOf(event))` makes, without the
 * fields' object in between (one line per request served: the edge's hit path). The client's
 * address is anonymised once per address (ClientAddresses).
 */
export function plainLineOf(event: ServedEvent, addresses: ClientAddresses): string {
  const { request, zone } = event;
  const headers = request.headers;
  const cacheStatus = event.cacheStatus === 'HIT' || event.cacheStatus === 'STALE' || event.cacheStatus === 'UPDATING' ? 'HIT' : 'MISS';
  const query = request.query === '' ? '' : `?${request.query}`;
  const ip = addresses.logged(request.clientIp, zone);
  const url = `${request.scheme}://${request.host}${request.path}${query}`;
  const plain = `${cacheStatus}|${event.status}|${event.at.getTime()}|${event.bytesSent}|${event.zoneId}|${text(ip)}|${text(headers['referer'] ?? '')}|${text(url)}|${EDGE_LOCATION}|${text(headers['user-agent'] ?? '')}|${text(event.requestId)}|-`;
  if (!zone.EnableExtendedLogging) return plain;
  const x = extendedOf(event);
  return `${plain}|${x.bodyBytesSent}|${text(x.range)}|${text(x.authorization)}`;
}

/** Client addresses as the lines write them, anonymised as a zone asks, remembered for the next lines (a client sends many requests). */
export class ClientAddresses {
  private readonly networks = new Map<string, string>();

  logged(address: string, zone: Pick<EdgeZone, 'LoggingIPAnonymizationEnabled' | 'LogAnonymizationType'>): string {
    if (!zone.LoggingIPAnonymizationEnabled) return address;
    if (zone.LogAnonymizationType === 1) return DROPPED_ADDRESS;
    let network = this.networks.get(address);
    if (network === undefined) {
      network = anonymized(address, { enabled: true, type: 0 }, DROPPED_ADDRESS);
      if (this.networks.size >= REMEMBERED_ADDRESSES) this.networks.clear();
      this.networks.set(address, network);
    }
    return network;
  }
}

/** Addresses remembered at most: past it, the memory starts again. */
const REMEMBERED_ADDRESSES = 10_000;

export function lineOf(event: ServedEvent): AccessLogLine {
  const { request, zone } = event;
  const query = request.query === '' ? '' : `?${request.query}`;
  return {
    cacheStatus: event.cacheStatus === 'HIT' || event.cacheStatus === 'STALE' || event.cacheStatus === 'UPDATING' ? 'HIT' : 'MISS',
    status: event.status,
    timestamp: event.at.getTime(),
    bytesSent: event.bytesSent,
    pullZoneId: event.zoneId,
    remoteIp: anonymized(request.clientIp, { enabled: zone.LoggingIPAnonymizationEnabled, type: zone.LogAnonymizationType }, DROPPED_ADDRESS),
    referer: request.headers['referer'] ?? '',
    url: `${request.scheme}://${request.host}${request.path}${query}`,
    edgeLocation: EDGE_LOCATION,
    userAgent: request.headers['user-agent'] ?? '',
    requestId: event.requestId,
    // No location database: the country is unknown.
    countryCode: '',
    extended: zone.EnableExtendedLogging ? extendedOf(event) : undefined,
  };
}

function extendedOf(event: ServedEvent): ExtendedFields {
  const authorization = event.request.headers['authorization'] ?? '';
  const space = authorization.indexOf(' ');
  return {
    bodyBytesSent: event.bytesSent,
    range: event.request.headers['range'] ?? '',
    // A header without a scheme is all credential: only its presence is said.
    authorization: authorization === '' ? '' : space < 0 ? 'Redacted' : authorization.slice(0, Math.min(space, 20)),
  };
}

/** A plain line's fields (12, or 15 with the extended ones); undefined when it is not a line of the access log. */
export function parseLine(plain: string): AccessLogLine | undefined {
  const f = plain.split('|');
  if (f.length !== 12 && f.length !== 15) return undefined;
  const line: AccessLogLine = {
    cacheStatus: f[0] === 'HIT' ? 'HIT' : 'MISS',
    status: Number(f[1]),
    timestamp: Number(f[2]),
    bytesSent: Number(f[3]),
    pullZoneId: Number(f[4]),
    remoteIp: untext(f[5]),
    referer: untext(f[6]),
    url: untext(f[7]),
    edgeLocation: untext(f[8]),
    userAgent: untext(f[9]),
    requestId: untext(f[10]),
    countryCode: untext(f[11]),
  };
  if (f.length === 15) line.extended = { bodyBytesSent: Number(f[12]), range: untext(f[13]), authorization: untext(f[14]) };
  return line;
}

/** The epoch milliseconds of a plain line (its third field), without splitting the rest. */
export function timestampOf(plain: string): number {
  const first = plain.indexOf('|');
  const second = plain.indexOf('|', first + 1);
  return Number(plain.slice(second + 1, plain.indexOf('|', second + 1)));
}

/** A line as one JSON object: the platform's field names, empty texts as empty strings. */
export function jsonLine(line: AccessLogLine): string {
  const x = line.extended;
  return JSON.stringify({
    CacheStatus: line.cacheStatus,
    Status: line.status,
    Timestamp: line.timestamp,
    BytesSent: line.bytesSent,
    PullZoneId: line.pullZoneId,
    RemoteIp: line.remoteIp,
    Referer: line.referer,
    Url: line.url,
    EdgeLocation: line.edgeLocation,
    UserAgent: line.userAgent,
    RequestId: line.requestId,
    CountryCode: line.countryCode,
    ...(x && { BodyBytesSent: x.bodyBytesSent, Range: x.range, Authorization: x.authorization }),
  });
}

/** `LogFormat`/`LogForwardingFormat`: 0 plain, 1 JSON. */
export type LogFormat = EdgeZone['LogFormat'];

/** A kept plain line in the format a zone asks for (JSON when `format` is 1). */
export function inFormat(plain: string, format: LogFormat): string {
  if (format !== 1) return plain;
  const line = parseLine(plain);
  return line === undefined ? JSON.stringify({ Line: plain }) : jsonLine(line);
}
