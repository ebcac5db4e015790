/**
 * Edge scripts (the scripting API under /compute/script): a script, its code, its releases, its
 * variables and secrets, its statistics. Shapes and bounds are the platform reference's; the
 * descriptions are ours. A secret's value is write-only: no answer declares it.
 */
import { Type, type Static } from 'typebox';
import { DateTime, Decimal, Double, Int32, Int64, IntEnum, Nullable } from './common.js';
import { Paged } from './paging.js';

/** 0 answers DNS queries (Script records), 1 serves a pull zone as its origin (standalone), 2 runs around a zone's origin requests (middleware). */
export const EDGE_SCRIPT_TYPES = { 0: 'DNS', 1: 'CDN', 2: 'Middleware' } as const;
export type EdgeScriptType = 0 | 1 | 2;
const ScriptType = IntEnum<EdgeScriptType>([0, 1, 2], { description: 'What the script does: 0 = DNS, 1 = CDN (standalone), 2 = Middleware.' });

/** 0 = Archived, 1 = Live. */
export const RELEASE_STATUSES = { 0: 'Archived', 1: 'Live' } as const;

const NullableString = (description: string, o: { maxLength?: number; minLength?: number } = {}) => Nullable(Type.String(o), { description });

export const EdgeScriptVariable = Type.Object(
  {
    Id: Int64({ description: 'Id of the variable.' }),
    Name: NullableString('Name the script reads it by (an environment variable).'),
    Required: Type.Boolean({ description: 'Whether the script expects it to be set.' }),
    DefaultValue: NullableString('Its value.'),
  },
  { additionalProperties: false, description: 'A variable handed to the script as an environment variable.' },
);

export const LinkedPullZone = Type.Object(
  {
    Id: Int64({ description: 'Id of the pull zone.' }),
    PullZoneName: NullableString('Name of the pull zone.'),
    DefaultHostname: NullableString('System hostname of the pull zone.'),
  },
  { additionalProperties: false, description: 'A pull zone that runs the script.' },
);

export const SourceCodeIntegration = Type.Object(
  {
    IntegrationId: Int64({ description: 'Id of the source code integration.' }),
    RepositorySettings: Nullable(
      Type.Object(
        {
          Id: Nullable(Int64(), { description: 'Repository id.' }),
          Name: NullableString('Repository name.'),
          Private: Type.Boolean({ description: 'Whether the repository is private.' }),
          TemplateUrl: NullableString('Template the repository was made from.'),
        },
        { additionalProperties: false },
      ),
      { description: 'The repository the code comes from.' },
    ),
    DeployConfiguration: Nullable(
      Type.Object(
        {
          Branch: NullableString('Branch deployed.'),
          InstallCommand: NullableString('Command that installs dependencies.'),
          BuildCommand: NullableString('Command that builds the script.'),
          EntryFile: NullableString('File the script starts from.'),
          CreateWorkflow: Type.Boolean({ description: 'Whether a deployment workflow is created.' }),
        },
        { additionalProperties: false },
      ),
      { description: 'How the code is built and deployed.' },
    ),
  },
  { additionalProperties: false, description: 'Where the code is deployed from (recorded; edgeplane deploys only through this API).' },
);

export const EdgeScript = Type.Object(
  {
    Id: Int64({ description: 'Id of the script.' }),
    Name: NullableString('Name of the script.'),
    LastModified: DateTime({ description: 'When the script or its code last changed.' }),
    ScriptType,
    CurrentReleaseId: Int64({ description: 'Id of the live release; 0 before the first publish.' }),
    EdgeScriptVariables: Nullable(Type.Array(EdgeScriptVariable), { description: 'Its variables.' }),
    Deleted: Type.Boolean({ description: 'Always false: a deleted script is gone.' }),
    LinkedPullZones: Nullable(Type.Array(LinkedPullZone), { description: 'Pull zones that run it.' }),
    Integration: Nullable(SourceCodeIntegration, { description: 'Source code integration, if any.' }),
    DefaultHostname: NullableString('Hostname the script answers on (its first linked pull zone).'),
    SystemHostname: NullableString('System hostname the script answers on (its first linked pull zone).'),
    DeploymentKey: NullableString('Key a deployment tool publishes with.'),
    RepositoryId: Nullable(Int64(), { description: 'Repository of its integration.' }),
    IntegrationId: Nullable(Int64(), { description: 'Id of its integration.' }),
    MonthlyCost: Decimal({ description: 'Charges this month: 0 here.' }),
    MonthlyRequestCount: Int64({ description: 'Requests the script answered this month.' }),
    MonthlyCpuTime: Int64({ description: 'CPU time the script used this month, in milliseconds.' }),
  },
  { $id: 'EdgeScript', additionalProperties: false, description: 'An edge script.' },
);

export const EdgeScriptPage = Paged(EdgeScript, 'scripts');

export const EdgeScriptCode = Type.Object(
  {
    Code: NullableString('The code as last uploaded.'),
    LastModified: DateTime({ description: 'When it was uploaded.' }),
  },
  { additionalProperties: false, description: 'The code of a script.' },
);

export const EdgeScriptRelease = Type.Object(
  {
    Id: Int64({ description: 'Id of the release.' }),
    Deleted: Type.Boolean({ description: 'Always false.' }),
    Code: NullableString('The code released.'),
    Uuid: NullableString('Its identifier, for publishing it again.'),
    Note: NullableString('Note given when it was published.'),
    Author: NullableString('Who published it.'),
    AuthorEmail: NullableString("Publisher's email."),
    CommitSha: NullableString('Commit it was built from.'),
    Status: IntEnum<0 | 1>([0, 1], { description: 'Whether it is live: 0 = Archived, 1 = Live.' }),
    DateReleased: DateTime({ description: 'When it was first published.' }),
    DatePublished: DateTime({ description: 'When it was last made live.' }),
  },
  { additionalProperties: false, description: 'A published version of the code.' },
);

export const EdgeScriptReleasePage = Paged(EdgeScriptRelease, 'releases');

export const EdgeScriptSecret = Type.Object(
  {
    Id: Int64({ description: 'Id of the secret.' }),
    Name: NullableString('Name the script reads it by (an environment variable).'),
    LastModified: DateTime({ description: 'When its value last changed.' }),
  },
  { additionalProperties: false, description: 'A secret: its value is sealed at rest and never shown.' },
);

export const EdgeScriptSecretList = Type.Object(
  { Secrets: Nullable(Type.Array(EdgeScriptSecret), { description: 'The secrets.' }) },
  { additionalProperties: false, description: "A script's secrets." },
);

const ChartSeries = (description: string) => Nullable(Type.Record(Type.String(), Double()), { description });

export const EdgeScriptStatistics = Type.Object(
  {
    TotalRequestsServed: Int64({ description: 'Requests the script answered in the period.' }),
    TotalCpuUsed: Double({ description: 'CPU time used in the period, in milliseconds.' }),
    TotalMonthlyCost: Decimal({ description: 'Charges: 0 here.' }),
    AverageCpuTimePerExecution: Double({ description: 'CPU time per request, in milliseconds.' }),
    RequestsServedChart: ChartSeries('Requests per point in time.'),
    AverageCpuTimeChart: ChartSeries('CPU time per request per point in time, in milliseconds.'),
    TotalCpuTimeChart: ChartSeries('CPU time per point in time, in milliseconds.'),
  },
  { additionalProperties: false, description: 'What the script did in a period.' },
);

// ---------------------------------------------------------------------------------------------
// Requests

const NameField = (max: number) => Type.String({ minLength: 1, maxLength: max, description: 'Name the script reads it by.' });
const ValueField = Type.Optional(NullableString('Its value.', { maxLength: 4096 }));

export const AddEdgeScriptRequest = Type.Object(
  {
    Name: Type.Optional(NullableString('Name of the script.', { maxLength: 100 })),
    Code: Type.Optional(NullableString('Its first code.')),
    ScriptType: Type.Optional(ScriptType),
    CreateLinkedPullZone: Type.Optional(Type.Boolean({ description: 'Create a pull zone that runs the script.' })),
    LinkedPullZoneName: Type.Optional(NullableString('Name of that pull zone (default: the script name).')),
    Integration: Type.Optional(Nullable(SourceCodeIntegration, { description: 'Source code integration (recorded).' })),
  },
  { additionalProperties: false, description: 'A script to create.' },
);

export const UpdateEdgeScriptRequest = Type.Object(
  {
    Name: Type.Optional(NullableString('New name.', { maxLength: 100 })),
    ScriptType: Type.Optional(ScriptType),
  },
  { additionalProperties: false, description: 'Changes to a script.' },
);

export const UpdateEdgeScriptCodeRequest = Type.Object(
  { Code: Type.Optional(NullableString('The code (JavaScript or TypeScript).')) },
  { additionalProperties: false, description: 'New code; it runs once published.' },
);

export const AddEdgeScriptVariableRequest = Type.Object(
  { Name: NameField(256), Required: Type.Boolean({ description: 'Whether the script expects it.' }), DefaultValue: ValueField },
  { additionalProperties: false, description: 'A variable to add.' },
);

export const UpdateEdgeScriptVariableRequest = Type.Object(
  { DefaultValue: ValueField, Required: Type.Optional(Nullable(Type.Boolean(), { description: 'Whether the script expects it.' })) },
  { additionalProperties: false, description: 'Changes to a variable.' },
);

export const UpsertEdgeScriptVariableRequest = Type.Object(
  { Name: NameField(256), Required: Type.Optional(Nullable(Type.Boolean(), { description: 'Whether the script expects it.' })), DefaultValue: ValueField },
  { additionalProperties: false, description: 'A variable to add, or to change when one has the name.' },
);

export const AddEdgeScriptSecretRequest = Type.Object(
  { Name: NameField(256), Secret: ValueField },
  { additionalProperties: false, description: 'A secret to add.' },
);

export const UpdateEdgeScriptSecretRequest = Type.Object({ Secret: ValueField }, { additionalProperties: false, description: 'A new value for a secret.' });

export const UpsertEdgeScriptSecretRequest = Type.Object(
  { Name: Type.Optional(Nullable(NameField(256), { description: 'Name the script reads it by.' })), Secret: ValueField },
  { additionalProperties: false, description: 'A secret to add, or to change when one has the name.' },
);

export const PublishEdgeScriptRequest = Type.Object(
  { Note: Type.Optional(NullableString('A note kept with the release.')) },
  { additionalProperties: false, description: 'Publishing a release.' },
);

export const EdgeScriptParams = Type.Object({ id: Int64({ description: 'Id of the script.' }) });
export const EdgeScriptVariableParams = Type.Object({
  id: Int64({ description: 'Id of the script.' }),
  variableId: Int64({ description: 'Id of the variable.' }),
});
export const EdgeScriptSecretParams = Type.Object({ id: Int64({ description: 'Id of the script.' }), secretId: Int64({ description: 'Id of the secret.' }) });
export const EdgeScriptReleaseParams = Type.Object({
  id: Int64({ description: 'Id of the script.' }),
  uuid: Type.String({ description: 'Uuid of the release.' }),
});

export const EdgeScriptListQuery = Type.Object({
  type: Type.Optional(Type.Array(ScriptType, { description: 'Only scripts of these types.' })),
  page: Int32({ minimum: 1, maximum: 2147483647, default: 1, description: 'Page number, from 1.' }),
  perPage: Int32({ minimum: 5, maximum: 1000, default: 1000, description: 'Scripts per page.' }),
  search: Type.Optional(Type.String({ description: 'Part of the name.' })),
  includeLinkedPullzones: Type.Boolean({ default: false, description: 'Fill LinkedPullZones.' }),
  integrationId: Type.Optional(Int64({ description: 'Only scripts of this integration.' })),
});

export const PageOnlyQuery = Type.Object({
  page: Int32({ minimum: 1, maximum: 2147483647, default: 1, description: 'Page number, from 1.' }),
  perPage: Int32({ minimum: 5, maximum: 1000, default: 1000, description: 'Releases per page.' }),
});

export const EdgeScriptStatisticsQuery = Type.Object({
  dateFrom: Type.Optional(DateTime({ description: 'Start of the period (default: 30 days ago).' })),
  dateTo: Type.Optional(DateTime({ description: 'End of the period (default: now).' })),
  loadLatest: Type.Boolean({ default: false, description: 'Accepted; figures are always current.' }),
  hourly: Type.Boolean({ default: false, description: 'Points per hour instead of per day.' }),
});

export const DeleteEdgeScriptQuery = Type.Object({
  deleteLinkedPullZones: Type.Boolean({ default: false, description: 'Also delete the pull zones that run it.' }),
});

export type EdgeScriptT = Static<typeof EdgeScript>;
export type EdgeScriptVariableT = Static<typeof EdgeScriptVariable>;
export type EdgeScriptSecretT = Static<typeof EdgeScriptSecret>;
export type EdgeScriptReleaseT = Static<typeof EdgeScriptRelease>;
export type EdgeScriptStatisticsT = Static<typeof EdgeScriptStatistics>;
export type SourceCodeIntegrationT = Static<typeof SourceCodeIntegration>;
export type AddEdgeScriptRequestT = Static<typeof AddEdgeScriptRequest>;
export type UpdateEdgeScriptRequestT = Static<typeof UpdateEdgeScriptRequest>;
export type AddEdgeScriptVariableRequestT = Static<typeof AddEdgeScriptVariableRequest>;
export type UpdateEdgeScriptVariableRequestT = Static<typeof UpdateEdgeScriptVariableRequest>;
export type UpsertEdgeScriptVariableRequestT = Static<typeof UpsertEdgeScriptVariableRequest>;
export type EdgeScriptListQueryT = Static<typeof EdgeScriptListQuery>;
export type EdgeScriptStatisticsQueryT = Static<typeof EdgeScriptStatisticsQuery>;
