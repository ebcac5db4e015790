/**
 * Log forwarding of container applications: where an application's logs are sent over syslog.
 * One configuration per application, addressed by the application's id.
 */
import { Type, type Static } from 'typebox';
import { DateTime, Int32, StringEnum } from './common.js';

const closed = { additionalProperties: false } as const;

export const LOG_FORWARDING_TYPES = ['SyslogUdp', 'SyslogTcp'] as const;
export const LOG_FORWARDING_FORMATS = ['SyslogRfc3164', 'SyslogRfc5424'] as const;
/** The product an application's logs come from, as configurations name it. */
export const CONTAINERS_PRODUCT = 'containers';

const properties = {
  app: Type.String({ minLength: 1, description: 'Id of the application whose logs are forwarded.' }),
  type: StringEnum(LOG_FORWARDING_TYPES, { description: 'Syslog over UDP or over TCP.' }),
  endpoint: Type.String({ minLength: 1, maxLength: 253, description: 'Host name or IP address of the syslog server.' }),
  port: Int32({ minimum: 1, maximum: 65535, description: 'Port of the syslog server (1 to 65535).' }),
  token: Type.Optional(
    Type.String({ maxLength: 1000, description: 'Token sent in every message, for the receiving service to recognize the sender (a credential).' }),
  ),
  format: StringEnum(LOG_FORWARDING_FORMATS, { description: 'Syslog message format: RFC 3164 or RFC 5424.' }),
  enabled: Type.Boolean({ description: 'Whether logs are forwarded.' }),
};

/** Body of POST /mc/log/forwarding and PUT /mc/log/forwarding/{appId}. */
export const LogForwardingRequest = Type.Object(properties, { ...closed, description: "Where to send an application's logs." });

export const LogForwardingConfiguration = Type.Object(
  {
    id: Type.String({ minLength: 1, description: 'Identifier of the configuration.' }),
    app: properties.app,
    productId: Type.String({ description: `The product the logs come from: \`${CONTAINERS_PRODUCT}\`.` }),
    type: properties.type,
    endpoint: properties.endpoint,
    port: properties.port,
    createdAt: DateTime({ description: 'When the configuration was created.' }),
    token: Type.Optional(Type.String({ description: 'Token sent in every message; left out when none is set.' })),
    format: properties.format,
    enabled: properties.enabled,
  },
  { ...closed, description: "Where an application's logs are sent." },
);

export const ListLogForwardingResponse = Type.Object(
  { items: Type.Array(LogForwardingConfiguration, { description: "The account's configurations, oldest first." }) },
  { ...closed, description: 'Every log forwarding configuration of the account.' },
);

export const LogForwardingParams = Type.Object({ appId: Type.String({ minLength: 1, description: 'Id of the application the configuration is for.' }) });

export type LogForwardingRequestT = Static<typeof LogForwardingRequest>;
export type LogForwardingConfigurationT = Static<typeof LogForwardingConfiguration>;
export type ListLogForwardingResponseT = Static<typeof ListLogForwardingResponse>;
