/**
 * The origin errors API's answer (the logging plane's `GET /{pullZoneId}/{MM-dd-yyyy}`, the
 * platform's cdn-origin-logging host): the requests of one UTC day that the edge could not get from
 * the zone's origin. Its errors are the specification's part 7 body (error.ts).
 */
import { Type, type Static } from 'typebox';

const closed = { additionalProperties: false } as const;

export const ORIGIN_ERROR_CODES = ['dns_lookup', 'http_timeout', 'network_socket_exception', 'http_request_failure', 'http_request_exception'] as const;

export const OriginErrorLogEntry = Type.Object(
  {
    logId: Type.String({ format: 'uuid', description: 'Identifies this entry; unique across zones.' }),
    timestamp: Type.Integer({ description: 'When the origin request failed, in milliseconds since the Unix epoch.' }),
    log: Type.String({
      description:
        'The failure as a JSON text (parse it a second time): `RequestUrl` (the path and query the client asked for), `PullZoneId`, `Message` (what went wrong, for people), `ErrorCode` and `StatusCode` (the status the client was answered with).',
    }),
    labels: Type.Object(
      {
        ErrorCode: Type.Union(
          ORIGIN_ERROR_CODES.map((code) => Type.Literal(code)),
          {
            description:
              'Why the origin gave no answer: `dns_lookup` its name did not resolve; `http_timeout` no connection or no answer within OriginConnectTimeout/OriginResponseTimeout; `network_socket_exception` the connection was refused, reset or failed (TLS included); `http_request_failure` the origin address policy refused the address; `http_request_exception` the request could not be made.',
          },
        ),
        StatusCode: Type.String({ description: 'The status the edge answered the client with, as text (502 or 504).' }),
        ServerZone: Type.String({ description: 'The edge location that saw the failure (`LOCAL`, as in the access log).' }),
        OriginHost: Type.String({ description: 'The origin asked: its host and port.' }),
      },
      { ...closed, description: 'The fields to filter and group entries by.' },
    ),
  },
  { ...closed, description: 'One failed request to the origin.' },
);

export const OriginErrorLogs = Type.Object(
  { logs: Type.Array(OriginErrorLogEntry, { description: 'The day’s entries, oldest first; at most 10,000 (the newest).' }) },
  { ...closed, $id: 'OriginErrorLogs', description: "A pull zone's origin errors of one UTC day." },
);
export type OriginErrorLogsT = Static<typeof OriginErrorLogs>;
export type OriginErrorLogEntryT = Static<typeof OriginErrorLogEntry>;
