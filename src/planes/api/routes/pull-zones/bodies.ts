/**
 * Request and response bodies of the pull zone sub-operations, with the platform's field names.
 * Each is small and belongs to these routes only; the zone itself is in schemas/pull-zone.ts.
 */
import { Type, type TSchema } from 'typebox';
import { Int32, Int64, Nullable } from '../../../../schemas/common.js';
import { EdgeRule, EdgeRuleExtraAction, EdgeRuleTrigger } from '../../../../schemas/pull-zone.js';

const closed = { additionalProperties: false } as const;

const HostnameField = (description: string) => Type.String({ minLength: 1, description });

/** A body that names one hostname of the zone. */
export const HostnameBody = (description: string) => Type.Object({ Hostname: HostnameField(description) }, closed);

export const ForceSslBody = Type.Object(
  {
    Hostname: HostnameField('A hostname of the zone.'),
    ForceSSL: Type.Boolean({ description: 'True to redirect plain-HTTP requests for the hostname to HTTPS.' }),
  },
  closed,
);

export const AddCertificateBody = Type.Object(
  {
    Hostname: HostnameField('The hostname of the zone the certificate is for.'),
    Certificate: Type.String({
      minLength: 1,
      description: 'The certificate file, Base64-encoded (PEM text is accepted as is); a chain may follow the certificate.',
    }),
    CertificateKey: Type.String({
      minLength: 1,
      description: 'The unencrypted private key file of the certificate, Base64-encoded (or PEM text). A credential.',
    }),
  },
  closed,
);

export const BlockedIpBody = Type.Object(
  { BlockedIp: Type.String({ minLength: 1, description: 'An IPv4 or IPv6 address, or a CIDR range such as 203.0.113.0/24.' }) },
  closed,
);

export const ResetSecurityKeyBody = Nullable(
  Type.Object(
    {
      SecurityKey: Type.Optional(Nullable(Type.String({ minLength: 8, maxLength: 36 }), { description: 'The new key; a random one when left out or null.' })),
    },
    closed,
  ),
  { description: 'Optional: a key of your choosing.' },
);

export const PurgeCacheBody = Nullable(
  Type.Object({ CacheTag: Type.Optional(Nullable(Type.String(), { description: 'Purge only files carrying this cache tag.' })) }, closed),
  { description: 'Optional: restricts the purge to one cache tag.' },
);

export const AvailabilityBody = Type.Object({ Name: Type.String({ minLength: 1, description: 'The pull zone name to check.' }) }, closed);

export const Availability = Type.Object({ Available: Type.Boolean({ description: 'True when no pull zone of any account has the name.' }) }, closed);

export const PullZoneCount = Type.Object({ Count: Int32({ description: 'Number of pull zones of the account.' }) }, closed);

export const EdgeRuleParams = Type.Object({
  pullZoneId: Int64({ minimum: 1, description: 'Identifier of the pull zone.' }),
  edgeRuleId: Type.String({ minLength: 1, description: 'GUID of the edge rule.' }),
});

export const PullZoneIdParams = Type.Object({ pullZoneId: Int64({ minimum: 1, description: 'Identifier of the pull zone.' }) });

/** Body of setEdgeRuleEnabled (the platform's toggle model); the rule is the one in the path. */
export const ToggleBody = Type.Object(
  {
    Id: Type.Optional(Int64({ description: 'Ignored: the rule is named by the path.' })),
    Value: Type.Boolean({ description: 'True to enable the rule, false to disable it.' }),
  },
  closed,
);

const sentOrNull = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

const trigger = EdgeRuleTrigger.properties;
const action = EdgeRuleExtraAction.properties;
const rule = EdgeRule.properties;

const TriggerRequest = Type.Object(
  {
    Type: trigger.Type,
    PatternMatches: sentOrNull(trigger.PatternMatches),
    PatternMatchingType: sentOrNull(trigger.PatternMatchingType),
    Parameter1: sentOrNull(trigger.Parameter1),
  },
  { ...closed, description: 'A condition of the rule. Left out: no patterns, MatchAny, no parameter.' },
);

const ExtraActionRequest = Type.Object(
  {
    ActionType: action.ActionType,
    ActionParameter1: sentOrNull(action.ActionParameter1),
    ActionParameter2: sentOrNull(action.ActionParameter2),
    ActionParameter3: sentOrNull(action.ActionParameter3),
  },
  { ...closed, description: 'A further action of the rule.' },
);

/**
 * Body of edgerules/addOrUpdate: an edge rule without ReadOnly (the platform's to set). A Guid
 * of an existing rule updates it, keeping the fields left out; otherwise a new rule is added, and
 * then ActionType is required.
 */
export const EdgeRuleRequest = Type.Object(
  {
    Guid: sentOrNull(Type.String({ description: 'GUID of the rule to update; left out for a new rule (the server picks one).' })),
    ActionType: sentOrNull(rule.ActionType),
    ActionParameter1: sentOrNull(rule.ActionParameter1),
    ActionParameter2: sentOrNull(rule.ActionParameter2),
    ActionParameter3: sentOrNull(rule.ActionParameter3),
    Triggers: sentOrNull(Type.Array(TriggerRequest, { description: 'Conditions of the rule; replace the current ones when sent.' })),
    ExtraActions: sentOrNull(Type.Array(ExtraActionRequest, { description: 'Further actions; replace the current ones when sent.' })),
    TriggerMatchingType: sentOrNull(rule.TriggerMatchingType),
    Description: sentOrNull(rule.Description),
    Enabled: sentOrNull(rule.Enabled),
    OrderIndex: sentOrNull(rule.OrderIndex),
  },
  { ...closed, description: 'An edge rule to add, or changes to one.' },
);
