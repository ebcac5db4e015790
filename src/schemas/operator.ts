/** Shapes of the operator API under /_edgeplane/ (an edgeplane extension, not the platform's API). */
import { Type } from 'typebox';
import { Double, Int64, StringEnum } from './common.js';

export const OperatorAccount = Type.Object({
  Id: Int64({ description: 'Account id.' }),
  Name: Type.String({ description: 'Account name.' }),
  Balance: Double({ description: 'Funds of the account; at 0 or below its pull zones stop serving (Enabled false).' }),
  DateCreated: Type.String({ format: 'date-time', description: 'When the account was created.' }),
});

export const OperatorAccountCreate = Type.Object(
  { Name: Type.String({ minLength: 1, maxLength: 100, description: 'Name of the new account.' }) },
  { additionalProperties: false },
);

export const OperatorAccountCreated = Type.Object({
  Id: Int64({ description: 'Account id.' }),
  Name: Type.String({ description: 'Account name.' }),
  ApiKey: Type.String({ description: 'Full-access personal API key of the new account. Shown once here; listed again by `GET /apikey`.' }),
});

export const OperatorBalance = Type.Object(
  { Balance: Double({ minimum: -1e15, maximum: 1e15, description: "The account's new funds." }) },
  { additionalProperties: false },
);

export const OperatorUsage = Type.Object(
  { Bytes: Int64({ minimum: 0, description: "Bytes served to add to the zone's MonthlyBandwidthUsed." }) },
  { additionalProperties: false },
);

export const Health = Type.Object({
  // Enums rather than unions of literals: a union costs the serializer a validator to pick its branch, compiled on the first probe.
  status: StringEnum(['ok', 'unavailable'], { description: '`ok` once the server can serve.' }),
  version: Type.String({ description: 'edgeplane version.' }),
  store: Type.String({ description: 'The store in use: sqlite or postgres.' }),
  planes: Type.Record(Type.String(), StringEnum(['ok', 'off']), {
    description:
      'Each plane of this process (`api`, and the data planes as they are built) and whether it serves (`ok`) or was turned off with its port variable (`off`).',
  }),
  containers: Type.Object(
    {
      runtime: StringEnum(['podman', 'simulated'], { description: 'What runs container applications (EDGEPLANE_CONTAINER_RUNTIME).' }),
      description: Type.String({ description: 'The runtime in one line: its version, or why the simulation was chosen.' }),
    },
    { description: 'What runs container applications.' },
  ),
});

/** One query of a DNS zone's query log (GET /_edgeplane/dnszones/{id}/querylog). */
export const DnsQueryLogEntry = Type.Object({
  Time: Type.String({ format: 'date-time', description: 'When the answer was sent.' }),
  ClientIp: Type.String({ description: "The client's address, anonymized as the zone's logging settings ask (empty when dropped)." }),
  Name: Type.String({ description: 'The name asked, as the client spelled it.' }),
  Type: Type.String({ description: 'The query type (`A`, `AAAA`, …).' }),
  ResponseCode: Type.String({ description: 'The answer code: `NOERROR`, `NXDOMAIN`, `REFUSED`, …' }),
  Transport: Type.Union([Type.Literal('udp'), Type.Literal('tcp')], { description: 'How the query came.' }),
});
