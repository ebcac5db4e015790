/**
 * Container applications, their container templates and endpoints (spec 2.2, 2.2.1; operations
 * 4.2, 4.2.1, 4.4 under `/mc`, and the platform's operations around them). This API travels in
 * camelCase with string enums and string ids.
 *
 * Request schemas close every object (`additionalProperties: false`); with the body validator's
 * `removeAdditional` that drops unknown fields rather than rejecting them. No request schema
 * carries a `default`: the validator would inject it, and defaults belong to the domain
 * (see `PROBE_DEFAULTS`).
 */
import { Type, type Static } from 'typebox';
import { Double, Int32, Int64, Nullable, StringEnum } from './common.js';
import { CursorPage, cursorField, cursorPageQuery, ListMeta } from './paging.js';

// ---------------------------------------------------------------------------------------------
// Enumerations

export const IMAGE_PULL_POLICIES = ['always', 'ifNotPresent'] as const;
export const PORT_PROTOCOLS = ['tcp', 'udp', 'sctp'] as const;
export const ENDPOINT_TYPES = ['cdn', 'anycast', 'publicIp'] as const;
export const ANYCAST_IP_VERSIONS = ['iPv4'] as const;
export const APPLICATION_STATUSES = ['unknown', 'active', 'progressing', 'inactive', 'failing', 'suspended'] as const;
export const APPLICATION_RUNTIME_TYPES = ['shared', 'reserved'] as const;
export const REGION_PROVISIONING_TYPES = ['static', 'dynamic'] as const;
/** Cookie of sticky sessions set up without one: the platform's answer names a cookie whenever it shows sticky sessions. */
export const DEFAULT_STICKY_COOKIE = 'sticky-session';
/** Names an HTTP probe may expect as the answer's status. */
export const HTTP_STATUS_NAMES = [
  'continue',
  'switchingProtocols',
  'processing',
  'earlyHints',
  'ok',
  'created',
  'accepted',
  'nonAuthoritativeInformation',
  'noContent',
  'resetContent',
  'partialContent',
  'multiStatus',
  'alreadyReported',
  'imUsed',
  'multipleChoices',
  'movedPermanently',
  'found',
  'seeOther',
  'notModified',
  'useProxy',
  'unused',
  'temporaryRedirect',
  'permanentRedirect',
  'badRequest',
  'unauthorized',
  'paymentRequired',
  'forbidden',
  'notFound',
  'methodNotAllowed',
  'notAcceptable',
  'proxyAuthenticationRequired',
  'requestTimeout',
  'conflict',
  'gone',
  'lengthRequired',
  'preconditionFailed',
  'requestEntityTooLarge',
  'requestUriTooLong',
  'unsupportedMediaType',
  'requestedRangeNotSatisfiable',
  'expectationFailed',
  'misdirectedRequest',
  'unprocessableEntity',
  'locked',
  'failedDependency',
  'upgradeRequired',
  'preconditionRequired',
  'tooManyRequests',
  'requestHeaderFieldsTooLarge',
  'unavailableForLegalReasons',
  'internalServerError',
  'notImplemented',
  'badGateway',
  'serviceUnavailable',
  'gatewayTimeout',
  'httpVersionNotSupported',
  'variantAlsoNegotiates',
  'insufficientStorage',
  'loopDetected',
  'notExtended',
  'networkAuthenticationRequired',
] as const;

export type ImagePullPolicy = (typeof IMAGE_PULL_POLICIES)[number];
export type PortProtocol = (typeof PORT_PROTOCOLS)[number];
export type EndpointType = (typeof ENDPOINT_TYPES)[number];
export type ApplicationStatus = (typeof APPLICATION_STATUSES)[number];
export type ApplicationRuntimeType = (typeof APPLICATION_RUNTIME_TYPES)[number];

/** What the platform assumes for a probe number the client leaves out. */
export const PROBE_DEFAULTS = {
  initialDelaySeconds: 10,
  periodSeconds: 10,
  timeoutSeconds: 7,
  failureThreshold: 3,
  successThreshold: 1,
} as const;

// ---------------------------------------------------------------------------------------------
// Patterns. All anchored: an unanchored JSON Schema pattern matches any string that merely
// contains a valid part. Every repetition is separated by a mandatory character, so none of
// them backtracks badly on hostile input.

/** Alphanumeric segments joined by one or two of `.` `/` `_` `-`. */
export const IMAGE_NAME_PATTERN = '^[a-zA-Z0-9]+(?:[./_-]{1,2}[a-zA-Z0-9]+)*$';
/** Alphanumeric segments joined by one or two of `.` `_` `-` (no `/`). */
export const IMAGE_TAG_PATTERN = '^[a-zA-Z0-9]+(?:[._-]{1,2}[a-zA-Z0-9]+)*$';
export const IMAGE_DIGEST_PATTERN = '^sha256:[a-z0-9]{64}$';
/** Letters, digits, hyphens and whitespace. */
export const APPLICATION_NAME_PATTERN = '^[A-Za-z0-9\\s-]+$';
/**
 * An absolute path of `[a-zA-Z0-9._-]` segments, an optional trailing slash, no `..`. Same
 * language as the platform's rule, rewritten without its nested quantifier.
 */
export const MOUNT_PATH_PATTERN = '^/(?!.*\\.\\.)[a-zA-Z0-9._-]+(?:/[a-zA-Z0-9._-]+)*/?$';

const Port = (description: string) => Int32({ minimum: 1, maximum: 65535, description });
const closed = { additionalProperties: false } as const;

// ---------------------------------------------------------------------------------------------
// Container template: pieces shared by requests and responses

export const ContainerEntryPoint = Type.Object(
  {
    command: Type.Optional(Nullable(Type.String(), { description: "Program to run instead of the image's entry point, as one string." })),
    commandArray: Type.Optional(Nullable(Type.Array(Type.String()), { description: 'The same, one element per word; used when given.' })),
    arguments: Type.Optional(Nullable(Type.String(), { description: 'Arguments to the program, as one string.' })),
    argumentsArray: Type.Optional(Nullable(Type.Array(Type.String()), { description: 'The same, one element per argument; used when given.' })),
    workingDirectory: Type.Optional(Nullable(Type.String(), { description: 'Directory the program starts in.' })),
  },
  { ...closed, description: "How the container's process is started." },
);

const probeNumber = (max: number, description: string, fallback: number) =>
  Type.Optional(Nullable(Int32({ minimum: 1, maximum: max, description: `${description} ${fallback} when left out.` })));

export const HttpGetProbe = Type.Object(
  {
    request: Type.Optional(
      Type.Object(
        {
          path: Type.Optional(Type.String({ description: 'Path requested, e.g. `/healthz`.' })),
          portNumber: Type.Optional(Port('Container port the request goes to.')),
        },
        { ...closed, description: 'The request the probe sends.' },
      ),
    ),
    response: Type.Optional(
      Type.Object(
        {
          expectedStatusCode: Type.Optional(StringEnum(HTTP_STATUS_NAMES, { description: 'Status the answer must have for the check to pass.' })),
        },
        { ...closed, description: 'What counts as a healthy answer.' },
      ),
    ),
  },
  { ...closed, description: 'Check by sending an HTTP GET request.' },
);

export const TcpSocketProbe = Type.Object(
  {
    request: Type.Optional(
      Type.Object({ portNumber: Type.Optional(Port('Container port to connect to.')) }, { ...closed, description: 'The connection the probe opens.' }),
    ),
  },
  { ...closed, description: 'Check by opening a TCP connection.' },
);

export const GrpcProbe = Type.Object(
  {
    request: Type.Optional(
      Type.Object(
        {
          portNumber: Type.Optional(Port('Container port of the gRPC server.')),
          serviceName: Type.Optional(Nullable(Type.String(), { description: 'Service whose health is asked; the server as a whole when left out.' })),
        },
        { ...closed, description: 'The health call the probe makes.' },
      ),
    ),
  },
  { ...closed, description: 'Check with the standard gRPC health service.' },
);

export const ContainerProbe = Type.Object(
  {
    initialDelaySeconds: probeNumber(3600, 'Seconds to wait after start before the first check.', PROBE_DEFAULTS.initialDelaySeconds),
    periodSeconds: probeNumber(3600, 'Seconds between checks.', PROBE_DEFAULTS.periodSeconds),
    timeoutSeconds: probeNumber(3600, 'Seconds a check may take before it counts as failed.', PROBE_DEFAULTS.timeoutSeconds),
    failureThreshold: probeNumber(1000, 'Consecutive failures that mark the container unhealthy.', PROBE_DEFAULTS.failureThreshold),
    successThreshold: probeNumber(1000, 'Consecutive successes that mark it healthy again.', PROBE_DEFAULTS.successThreshold),
    httpGet: Type.Optional(HttpGetProbe),
    tcpSocket: Type.Optional(TcpSocketProbe),
    grpc: Type.Optional(GrpcProbe),
  },
  { ...closed, description: 'One health check; give one of httpGet, tcpSocket or grpc.' },
);

export const ContainerProbes = Type.Object(
  {
    startup: Type.Optional(ContainerProbe),
    readiness: Type.Optional(ContainerProbe),
    liveness: Type.Optional(ContainerProbe),
  },
  {
    ...closed,
    description:
      'Health checks: `startup` gates the others until the container has started, `readiness` decides whether it receives traffic, `liveness` restarts it when failing.',
  },
);

export const EnvironmentVariable = Type.Object(
  {
    name: Type.String({ minLength: 1, description: 'Variable name.' }),
    value: Type.Optional(Type.String({ description: 'Variable value.' })),
  },
  { ...closed, description: 'An environment variable of the container.' },
);

// ---------------------------------------------------------------------------------------------
// Endpoints (requests)

export const PortMappingRequest = Type.Object(
  {
    containerPort: Port('Port the container listens on.'),
    exposedPort: Type.Optional(Nullable(Port('Port exposed to clients; the container port when left out.'))),
    protocols: Type.Optional(Type.Array(StringEnum(PORT_PROTOCOLS), { description: `Transport protocols forwarded: ${PORT_PROTOCOLS.join(', ')}.` })),
  },
  { ...closed, description: 'A port forwarded to the container.' },
);

export const StickySessionSettings = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean({ description: 'Send a client back to the same instance.' })),
    sessionHeaders: Type.Array(Type.String(), { minItems: 1, maxItems: 3, description: 'Request headers that identify a session (1 to 3).' }),
    cookieName: Type.Optional(Type.String({ description: `Cookie that carries the session affinity; \`${DEFAULT_STICKY_COOKIE}\` when left out or empty.` })),
  },
  { ...closed, description: 'Session affinity of a delivery endpoint.' },
);

export const CdnEndpointRequest = Type.Object(
  {
    isSslEnabled: Type.Optional(Type.Boolean({ title: 'Serve over HTTPS', description: 'Serve the endpoint over HTTPS.' })),
    stickySessions: Type.Optional(StickySessionSettings),
    pullZoneId: Type.Optional(
      Nullable(Int64({ minimum: 1 }), { description: 'Existing pull zone to put in front of the container; one is created when left out.' }),
    ),
    portMappings: Type.Optional(Type.Array(PortMappingRequest, { minItems: 1, maxItems: 1, description: 'The one port the delivery network forwards to.' })),
  },
  { ...closed, description: 'Expose the container through the delivery network.' },
);

export const AnycastEndpointRequest = Type.Object(
  {
    type: StringEnum(ANYCAST_IP_VERSIONS, { description: 'IP version of the anycast address.' }),
    portMappings: Type.Array(PortMappingRequest, { minItems: 1, description: 'Ports forwarded from the anycast address.' }),
  },
  { ...closed, description: 'Expose the container on an anycast IP address.' },
);

/** An endpoint in a container template request; also the body of PUT /mc/apps/{appId}/endpoints/{endpointId}. */
export const EndpointRequest = Type.Object(
  {
    displayName: Type.String({ minLength: 1, maxLength: 50, description: 'Name of the endpoint, unique in the application; 1 to 50 characters.' }),
    cdn: Type.Optional(CdnEndpointRequest),
    anycast: Type.Optional(AnycastEndpointRequest),
  },
  { ...closed, description: 'How a container is reached from outside; give `cdn` or `anycast`.' },
);

export const VolumeMountRequest = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 50, description: 'Volume of the application to mount.' }),
    mountPath: Type.String({ minLength: 1, pattern: MOUNT_PATH_PATTERN, description: 'Absolute path inside the container.' }),
  },
  { ...closed, description: 'A volume mounted into the container.' },
);

// ---------------------------------------------------------------------------------------------
// Container template requests

const containerRequestProperties = {
  name: Type.String({ minLength: 1, maxLength: 50, description: 'Name of the container, unique in the application; 1 to 50 characters.' }),
  image: Type.Optional(Nullable(Type.String(), { description: 'Full image reference; derived from the parts below when left out.' })),
  imageName: Type.String({ minLength: 1, pattern: IMAGE_NAME_PATTERN, description: 'Image repository name, e.g. `nginx`.' }),
  imageNamespace: Type.String({ minLength: 1, pattern: IMAGE_NAME_PATTERN, description: 'Namespace (owner) of the image, e.g. `library`.' }),
  imageTag: Type.String({ minLength: 1, pattern: IMAGE_TAG_PATTERN, description: 'Image tag, e.g. `1.25-alpine`.' }),
  imageRegistryId: Type.String({ minLength: 1, description: 'Identifier of the image registry to pull from.' }),
  imageDigest: Type.Optional(
    Nullable(Type.String({ minLength: 1, pattern: IMAGE_DIGEST_PATTERN }), {
      description: 'Pin the image to this content digest: `sha256:` and 64 lowercase hex characters.',
    }),
  ),
  imagePullPolicy: Type.Optional(
    StringEnum(IMAGE_PULL_POLICIES, { description: 'Pull the image on every start (`always`) or only when missing on the node (`ifNotPresent`).' }),
  ),
  entryPoint: Type.Optional(ContainerEntryPoint),
  probes: Type.Optional(ContainerProbes),
  environmentVariables: Type.Optional(Type.Array(EnvironmentVariable, { description: 'Environment of the container.' })),
  endpoints: Type.Optional(Type.Array(EndpointRequest, { description: 'Ways to reach the container.' })),
  volumeMounts: Type.Optional(Type.Array(VolumeMountRequest, { description: 'Volumes mounted into the container.' })),
};

/** Body of POST /mc/apps/{appId}/containers. */
export const ContainerTemplateRequest = Type.Object(containerRequestProperties, {
  ...closed,
  description: 'A container to add to an application.',
});

/** An element of `containerTemplates` in an application body. */
export const ApplicationContainerRequest = Type.Object(
  {
    id: Type.Optional(Nullable(Type.String(), { description: 'Id of an existing container to keep and update; a new container is created when left out.' })),
    ...containerRequestProperties,
  },
  { ...closed, description: 'A container of the application.' },
);

// ---------------------------------------------------------------------------------------------
// Container template response

export const EndpointPortMapping = Type.Object(
  {
    containerPort: Int32({ description: 'Port the container listens on.' }),
    exposedPort: Int32({ description: 'Port exposed to clients.' }),
    protocols: Type.Array(StringEnum(PORT_PROTOCOLS), { description: 'Transport protocols forwarded.' }),
  },
  { ...closed, description: 'A port forwarded to the container.' },
);

export const EndpointStickySession = Type.Object(
  {
    enabled: Type.Boolean({ description: 'True when clients are sent back to the same instance.' }),
    sessionHeaders: Type.Array(Type.String(), { description: 'Request headers that identify a session.' }),
    cookieName: Type.String({ minLength: 1, description: 'Cookie that carries the session affinity.' }),
  },
  { ...closed, description: 'Session affinity settings; left out for an endpoint without sticky sessions.' },
);

export const EndpointIpAddress = Type.Object(
  {
    address: Type.String({ minLength: 1, description: 'The IP address.' }),
    region: Type.String({ minLength: 1, description: 'Region the address is served from.' }),
  },
  { ...closed, description: 'An address of the endpoint in one region.' },
);

export const ContainerEndpointResponse = Type.Object(
  {
    id: Type.String({ minLength: 1, description: 'Identifier of the endpoint; pull zones refer to it.' }),
    displayName: Type.String({ minLength: 1, description: 'Name of the endpoint.' }),
    publicHost: Type.String({ description: 'Host name (or address) clients connect to.' }),
    type: StringEnum(ENDPOINT_TYPES, { description: 'Kind of endpoint.' }),
    isSslEnabled: Type.Boolean({ description: 'True when served over HTTPS.' }),
    pullZoneId: Nullable(Type.String(), { description: 'Id of the pull zone in front of the endpoint, as a string; null for endpoints without one.' }),
    portMappings: Type.Array(EndpointPortMapping, { description: 'Ports forwarded to the container.' }),
    stickySessions: Type.Optional(EndpointStickySession),
    internalIpAddresses: Nullable(Type.Array(EndpointIpAddress), { description: 'Addresses reachable from inside the platform.' }),
    publicIpAddresses: Nullable(Type.Array(EndpointIpAddress), { description: 'Addresses reachable from the internet.' }),
  },
  { ...closed, description: 'An endpoint of a container.' },
);

export const ContainerVolumeMount = Type.Object(
  {
    name: Type.String({ minLength: 1, description: 'Volume mounted.' }),
    mountPath: Type.String({ minLength: 1, description: 'Path inside the container.' }),
  },
  { ...closed, description: 'A volume mounted into the container.' },
);

/** A container template as returned (by POST /mc/apps/{appId}/containers and inside an application). */
export const ContainerTemplate = Type.Object(
  {
    id: Type.String({ minLength: 1, description: 'Identifier of the container template.' }),
    name: Type.String({ minLength: 1, description: 'Name of the container.' }),
    packageId: Type.String({ minLength: 1, description: 'Identifier of the image package the template runs.' }),
    image: Type.String({ minLength: 1, description: 'Full image reference.' }),
    imageName: Type.String({ minLength: 1, description: 'Image repository name.' }),
    imageNamespace: Type.String({ minLength: 1, description: 'Namespace (owner) of the image.' }),
    imageTag: Type.String({ minLength: 1, description: 'Image tag.' }),
    imageRegistryId: Type.String({ minLength: 1, description: 'Registry the image is pulled from.' }),
    imageDigest: Nullable(Type.String(), { description: 'Content digest the image is pinned to; null when not pinned.' }),
    imagePullPolicy: StringEnum(IMAGE_PULL_POLICIES, { description: 'When the image is pulled.' }),
    entryPoint: ContainerEntryPoint,
    probes: ContainerProbes,
    environmentVariables: Type.Array(EnvironmentVariable, { description: 'Environment of the container.' }),
    endpoints: Type.Array(ContainerEndpointResponse, { description: 'Ways to reach the container.' }),
    volumeMounts: Type.Array(ContainerVolumeMount, { description: 'Volumes mounted into the container.' }),
  },
  { ...closed, description: 'A container template.' },
);

// ---------------------------------------------------------------------------------------------
// Applications

/** Most instances of one application; the account limits (`GET /mc/limits`) show it. */
export const MAX_INSTANCES_PER_APPLICATION = 1000;

export const AutoScaling = Type.Object(
  {
    min: Int32({
      minimum: 1,
      maximum: MAX_INSTANCES_PER_APPLICATION,
      title: 'Minimum instances',
      description: `Fewest instances kept running (1 to ${MAX_INSTANCES_PER_APPLICATION}).`,
    }),
    max: Int32({
      minimum: 1,
      title: 'Maximum instances',
      maximum: MAX_INSTANCES_PER_APPLICATION,
      description: `Most instances started under load (1 to ${MAX_INSTANCES_PER_APPLICATION}).`,
    }),
  },
  { ...closed, description: 'Instance count bounds.' },
);

export const RegionSettingsRequest = Type.Object(
  {
    allowedRegionIds: Type.Optional(Nullable(Type.Array(Type.String()), { description: 'Regions the application may run in.' })),
    requiredRegionIds: Type.Optional(Nullable(Type.Array(Type.String()), { description: 'Regions the application always runs in.' })),
    maxAllowedRegions: Type.Optional(Nullable(Int32(), { description: 'Most regions run in at once.' })),
    nodeSelectors: Type.Optional(
      Nullable(Type.Record(Type.String(), Type.String()), { description: "Node labels (name to value) an instance's node must carry." }),
    ),
  },
  { ...closed, description: 'Where the application runs.' },
);

export const RepositorySettings = Type.Object(
  {
    templateRepository: Type.Optional(Nullable(Type.String(), { description: 'Repository the application was created from.' })),
    repositoryName: Type.Optional(Nullable(Type.String(), { description: "Name of the application's source repository." })),
    owner: Type.Optional(Nullable(Type.String(), { description: 'Owner of that repository.' })),
  },
  { ...closed, description: 'Source repository linked to the application.' },
);

/** Largest persistent volume, in GB; the account limits (`GET /mc/limits`) show it. */
export const MAX_VOLUME_SIZE_GB = 100;
/** Most persistent volumes of one application; the account limits show it. */
export const MAX_VOLUMES_PER_APPLICATION = 10;

const volumeName = Type.String({ minLength: 1, maxLength: 50, description: 'Name of the volume; containers mount it by this name.' });
const volumeSize = Int32({ minimum: 1, maximum: MAX_VOLUME_SIZE_GB, description: `Size in GB (1 to ${MAX_VOLUME_SIZE_GB}).` });

export const VolumeRequest = Type.Object(
  {
    name: volumeName,
    size: volumeSize,
  },
  { ...closed, description: 'A persistent volume of the application.' },
);

const applicationRequestProperties = {
  name: Type.String({
    minLength: 1,
    maxLength: 100,
    pattern: APPLICATION_NAME_PATTERN,
    description: 'Name of the application: 1 to 100 letters, digits, hyphens and spaces.',
  }),
  runtimeType: StringEnum(APPLICATION_RUNTIME_TYPES, { description: 'Run on shared capacity or on capacity reserved for the application.' }),
  terminationGracePeriodSeconds: Type.Optional(
    Int64({ minimum: 1, maximum: 300, description: 'Seconds a stopping container gets to exit before it is killed (1 to 300).' }),
  ),
  repositorySettings: Type.Optional(RepositorySettings),
  autoScaling: AutoScaling,
  regionSettings: RegionSettingsRequest,
  volumes: Type.Optional(
    Type.Array(VolumeRequest, { maxItems: MAX_VOLUMES_PER_APPLICATION, description: `Persistent volumes (at most ${MAX_VOLUMES_PER_APPLICATION}).` }),
  ),
};

/** Body of POST /mc/apps. */
export const ApplicationCreateRequest = Type.Object(
  {
    ...applicationRequestProperties,
    containerTemplates: Type.Optional(
      Type.Array(ApplicationContainerRequest, { minItems: 1, description: 'Containers of the application; at least one when given.' }),
    ),
  },
  { ...closed, description: 'An application to create.' },
);

/** Body of PUT /mc/apps/{appId}: the complete configuration, replacing the stored one. */
export const ApplicationReplaceRequest = Type.Object(
  {
    ...applicationRequestProperties,
    containerTemplates: Type.Array(ApplicationContainerRequest, {
      minItems: 1,
      description:
        'All containers of the application (at least one). Items with an `id` update that container; items without create one; containers not listed are removed.',
    }),
  },
  { ...closed, description: 'The complete configuration of an application.' },
);

export const RegionSettings = Type.Object(
  {
    allowedRegionIds: Type.Array(Type.String(), { uniqueItems: true, description: 'Regions the application may run in.' }),
    requiredRegionIds: Type.Array(Type.String(), { uniqueItems: true, description: 'Regions the application always runs in.' }),
    maxAllowedRegions: Nullable(Int32(), { description: 'Most regions run in at once; null when unlimited.' }),
    provisioningType: StringEnum(REGION_PROVISIONING_TYPES, { description: 'Fixed set of regions (`static`) or regions chosen by demand (`dynamic`).' }),
    nodeSelectors: Nullable(Type.Record(Type.String(), Type.String()), { description: "Node labels an instance's node must carry; null when none." }),
  },
  { ...closed, description: 'Where the application runs.' },
);

export const ContainerInstance = Type.Object(
  {
    id: Type.String({ minLength: 1, description: 'Identifier of the running instance.' }),
    templateId: Type.String({ minLength: 1, description: 'Container template it runs.' }),
    podId: Type.String({ minLength: 1, description: 'Group of containers it belongs to.' }),
    nodeIpAddress: Type.String({ minLength: 1, description: 'Address of the node it runs on.' }),
  },
  { ...closed, description: 'A running container.' },
);

export const VolumeTemplate = Type.Object(
  {
    name: Type.String({ minLength: 1, description: 'Name of the volume.' }),
    size: Double({ description: 'Size in GB.' }),
  },
  { ...closed, description: 'A persistent volume.' },
);

export const DisplayEndpoint = Type.Object(
  {
    id: Type.String({ minLength: 1, description: 'Identifier of the endpoint.' }),
    address: Type.String({ minLength: 1, description: 'Address to show for the application.' }),
    type: StringEnum(ENDPOINT_TYPES, { description: 'Kind of endpoint.' }),
  },
  { ...closed, description: "The endpoint shown as the application's address; left out while the application has none." },
);

export const NetworkLimits = Type.Object(
  {
    ingressBandwidthLimit: Int64({ description: 'Most incoming bandwidth, in bits per second.' }),
    egressBandwidthLimit: Int64({ description: 'Most outgoing bandwidth, in bits per second.' }),
  },
  { ...closed, description: 'Network limits of the application.' },
);

/** An application as returned by GET /mc/apps/{appId}. */
export const Application = Type.Object(
  {
    id: Type.String({ minLength: 1, description: 'Identifier of the application.' }),
    name: Type.String({ minLength: 1, description: 'Name of the application.' }),
    displayEndpoint: Type.Optional(DisplayEndpoint),
    status: StringEnum(APPLICATION_STATUSES, { description: 'Overall state of the application.' }),
    runtimeType: StringEnum(APPLICATION_RUNTIME_TYPES, { description: 'Shared or reserved capacity.' }),
    regionSettings: RegionSettings,
    containerTemplates: Type.Array(ContainerTemplate, { description: 'Containers of the application.' }),
    containerInstances: Type.Array(ContainerInstance, { description: 'Running containers.' }),
    volumes: Type.Array(VolumeTemplate, { description: 'Persistent volumes.' }),
    autoScaling: AutoScaling,
    networkSettings: NetworkLimits,
    repositorySettings: Type.Optional(RepositorySettings),
    terminationGracePeriodSeconds: Nullable(Int64(), { description: 'Seconds a stopping container gets to exit; null when never set.' }),
  },
  { ...closed, description: 'A container application.' },
);

// ---------------------------------------------------------------------------------------------
// Small responses

/** Response of POST /mc/apps and PUT /mc/apps/{appId}. */
export const IdResponse = Type.Object(
  { id: Type.String({ description: 'Identifier of the application.' }) },
  { ...closed, description: 'The identifier of the saved resource.' },
);

/** Body of PUT /mc/apps/{appId}/endpoints/{endpointId}. */
export const EndpointUpdateRequest = EndpointRequest;

/** Response of PUT /mc/apps/{appId}/endpoints/{endpointId} (failures use the part 7 error body, which carries `id` too). */
export const EndpointUpdateResponse = Type.Object(
  { id: Type.String({ description: 'Identifier of the saved endpoint.' }) },
  { ...closed, description: 'The endpoint that was saved.' },
);

// ---------------------------------------------------------------------------------------------
// Path parameters

const appIdParam = Type.String({ minLength: 1, description: 'Id of the application.' });
const containerIdParam = Type.String({ minLength: 1, description: 'Id of the container template.' });

export const AppParams = Type.Object({ appId: appIdParam });
export const ContainerParams = Type.Object({ appId: appIdParam, containerId: containerIdParam });
export const EndpointParams = Type.Object({
  appId: appIdParam,
  endpointId: Type.String({ minLength: 1, description: 'Id of the endpoint, or its display name.' }),
});

/**
 * The platform answers these operations 200 with an empty body. Typed as no value so handlers
 * send nothing; Fastify serializes nothing then, and the document shows a response without content.
 */
export const NoContent = (description: string) => Type.Unsafe<undefined>({ type: 'null', description });

// ---------------------------------------------------------------------------------------------
// Lists. The container API pages with an opaque cursor: each answer's `cursor` is sent back as
// `nextCursor` for the following page, and is null on the last one.

/** Query of GET /mc/apps. */
export const ListApplicationsQuery = cursorPageQuery('applications');

export const AppListItem = Type.Object(
  {
    id: Type.String({ minLength: 1, description: 'Identifier of the application.' }),
    name: Type.String({ minLength: 1, description: 'Name of the application.' }),
    description: Type.String({ description: 'Free-text description; the API offers no way to set one, so it is empty.' }),
    displayEndpoint: Type.Optional(DisplayEndpoint),
    status: StringEnum(APPLICATION_STATUSES, { description: 'Overall state of the application.' }),
  },
  { ...closed, description: 'An application in a list.' },
);

export const ListApplicationsResponse = CursorPage(
  Type.Array(AppListItem, { description: 'Applications on this page, oldest first.' }),
  cursorField('applications'),
  "One page of the account's applications.",
);

export const EndpointListItem = Type.Object(
  {
    ...ContainerEndpointResponse.properties,
    containerName: Type.String({ minLength: 1, description: 'Name of the container the endpoint belongs to.' }),
    containerId: Type.String({ minLength: 1, description: 'Id of that container.' }),
  },
  { ...closed, description: 'An endpoint of the application, with its container.' },
);

/** Response of GET /mc/apps/{appId}/endpoints: every endpoint, on one page. */
export const ListEndpointsResponse = CursorPage(
  Type.Array(EndpointListItem, { description: 'Endpoints of all containers, in container order.' }),
  cursorField('endpoints'),
  'The endpoints of an application.',
);

// ---------------------------------------------------------------------------------------------
// Partial updates. A field left out or sent as null keeps its value (the platform's request
// models use null for "not sent"); arrays that are sent replace the stored ones.

/** Body of PATCH /mc/apps/{appId}. */
export const ApplicationPatchRequest = Type.Object(
  {
    name: Type.Optional(Nullable(applicationRequestProperties.name)),
    runtimeType: Type.Optional(applicationRequestProperties.runtimeType),
    autoScaling: Type.Optional(AutoScaling),
    regionSettings: Type.Optional(RegionSettingsRequest),
    containerTemplates: Type.Optional(
      Nullable(Type.Array(ApplicationContainerRequest, { minItems: 1 }), {
        description:
          'All containers of the application, as in a replacement: items with an `id` update that container, items without create one, containers not listed are removed.',
      }),
    ),
    volumes: Type.Optional(
      Nullable(Type.Array(VolumeRequest, { maxItems: MAX_VOLUMES_PER_APPLICATION }), {
        description: `All persistent volumes (at most ${MAX_VOLUMES_PER_APPLICATION}); replaces the stored list.`,
      }),
    ),
  },
  { ...closed, description: 'The application settings to change.' },
);

/** Body of PATCH /mc/apps/{appId}/containers/{containerId}. */
export const ContainerPatchRequest = Type.Object(
  {
    name: Type.Optional(Nullable(containerRequestProperties.name)),
    image: containerRequestProperties.image,
    imageName: Type.Optional(Nullable(containerRequestProperties.imageName)),
    imageNamespace: Type.Optional(Nullable(containerRequestProperties.imageNamespace)),
    imageTag: Type.Optional(Nullable(containerRequestProperties.imageTag)),
    imageRegistryId: Type.Optional(Nullable(containerRequestProperties.imageRegistryId)),
    imageDigest: containerRequestProperties.imageDigest,
    imagePullPolicy: containerRequestProperties.imagePullPolicy,
    entryPoint: containerRequestProperties.entryPoint,
    probes: containerRequestProperties.probes,
    environmentVariables: Type.Optional(Nullable(Type.Array(EnvironmentVariable), { description: 'Environment of the container; replaces the stored one.' })),
    endpoints: Type.Optional(
      Nullable(Type.Array(EndpointRequest), {
        description: 'All endpoints of the container; one sent with a stored display name keeps its id, host and addresses.',
      }),
    ),
    volumeMounts: Type.Optional(Nullable(Type.Array(VolumeMountRequest), { description: 'Volumes mounted; replaces the stored list.' })),
  },
  { ...closed, description: 'The container settings to change.' },
);

/** Body of PUT /mc/apps/{appId}/containers/{containerId}/env: variable name to value. */
export const EnvironmentVariablesRequest = Type.Record(Type.String(), Type.String(), {
  description: 'The complete environment of the container, as an object of variable names and values.',
});

// ---------------------------------------------------------------------------------------------
// Volumes

export const VOLUME_STATUSES = [
  'unknown',
  'attached',
  'detached',
  'extending',
  'deleting',
  'creating',
  'notScheduled',
  'scheduled',
  'failed',
  'maintenance',
] as const;

export const VolumeInstance = Type.Object(
  {
    id: Type.String({ minLength: 1, description: 'Identifier of the volume instance.' }),
    attachedPods: Type.Array(Type.String(), { description: 'Pods using the instance.' }),
    attachedContainers: Type.Array(Type.String(), { description: 'Running containers (instance ids) that mount it.' }),
    region: Type.String({ minLength: 1, description: 'Region the instance is stored in.' }),
    status: StringEnum(VOLUME_STATUSES, { description: 'State of the instance.' }),
    size: Double({ description: 'Size in GB.' }),
    usage: Double({ description: 'Space used, in GB.' }),
    set: Type.String({ minLength: 1, description: 'The volume this instance belongs to.' }),
  },
  { ...closed, description: 'The copy of a volume that one pod uses.' },
);

export const VolumeInList = Type.Object(
  {
    name: Type.String({ minLength: 1, description: 'Name of the volume.' }),
    id: Type.String({ minLength: 1, description: 'Identifier of the volume.' }),
    size: Double({ description: 'Size of each instance, in GB.' }),
    totalUsage: Double({ description: 'Space used over all instances, in GB.' }),
    totalInstancesCount: Int32({ minimum: 0, description: 'Number of instances (one per pod).' }),
    attachedInstancesCount: Int32({ minimum: 0, description: 'Instances in use by a running pod.' }),
    containersCount: Int32({ minimum: 0, description: 'Containers that mount the volume.' }),
    volumeInstances: Type.Array(VolumeInstance, { description: 'The instances.' }),
  },
  { ...closed, description: 'A persistent volume with its instances.' },
);

export const ListVolumesSummary = Type.Object(
  {
    totalPods: Int32({ minimum: 0, description: 'Running pods of the application.' }),
    totalContainers: Int32({ minimum: 0, description: 'Running containers of the application.' }),
    totalStorage: Double({ description: 'Space reserved by all volume instances, in GB.' }),
  },
  { ...closed, description: 'Totals over the application.' },
);

/** Response of GET /mc/apps/{appId}/volumes: every volume, on one page. */
export const ListVolumesResponse = Type.Object(
  {
    items: Type.Array(VolumeInList, { description: 'Volumes of the application.' }),
    meta: ListMeta,
    cursor: cursorField('volumes'),
    summary: ListVolumesSummary,
  },
  { ...closed, description: 'The persistent volumes of an application.' },
);

const volumeIdParam = Type.String({ minLength: 1, description: 'Id of the volume, or its name.' });

export const VolumeParams = Type.Object({ appId: appIdParam, volumeId: volumeIdParam });
export const VolumeInstanceParams = Type.Object({
  appId: appIdParam,
  volumeId: volumeIdParam,
  instanceId: Type.String({ minLength: 1, description: 'Id of the volume instance.' }),
});
export const PodParams = Type.Object({
  appId: appIdParam,
  podId: Type.String({ minLength: 1, description: 'Id of the pod (`podId` of a running container).' }),
});

/** Body of PATCH /mc/apps/{appId}/volumes/{volumeId}. */
export const PatchVolumeRequest = Type.Object(
  {
    name: Type.Optional(Nullable(volumeName, { description: 'New name of the volume; the containers that mount it follow.' })),
    size: Type.Optional(Nullable(volumeSize, { description: `New size in GB (1 to ${MAX_VOLUME_SIZE_GB}); a volume can grow, never shrink.` })),
  },
  { ...closed, description: 'The volume settings to change; a field left out or null keeps its value.' },
);

export const UpdateVolumeResponse = Type.Object(
  {
    name: Type.String({ minLength: 1, description: 'Name of the volume.' }),
    size: Double({ description: 'Size of each instance, in GB.' }),
  },
  { ...closed, description: 'The volume as saved.' },
);

export const DetachVolumeResponse = Type.Object(
  { name: Type.String({ minLength: 1, description: 'Name of the volume detached.' }) },
  { ...closed, description: 'The volume that no container mounts any more.' },
);

export const DeleteAllVolumeInstancesResponse = Type.Object(
  { ids: Type.Array(Type.String(), { description: 'Ids of the instances deleted.' }) },
  { ...closed, description: 'The instances deleted.' },
);

export const DeleteVolumeInstanceResponse = Type.Object(
  { id: Type.String({ minLength: 1, description: 'Id of the instance deleted.' }) },
  { ...closed, description: 'The instance deleted.' },
);

export type ContainerProbeT = Static<typeof ContainerProbe>;
export type ContainerProbesT = Static<typeof ContainerProbes>;
export type PortMappingRequestT = Static<typeof PortMappingRequest>;
export type EndpointRequestT = Static<typeof EndpointRequest>;
export type ContainerTemplateRequestT = Static<typeof ContainerTemplateRequest>;
export type ApplicationContainerRequestT = Static<typeof ApplicationContainerRequest>;
export type ContainerEndpointResponseT = Static<typeof ContainerEndpointResponse>;
export type ContainerTemplateT = Static<typeof ContainerTemplate>;
export type AutoScalingT = Static<typeof AutoScaling>;
export type RegionSettingsRequestT = Static<typeof RegionSettingsRequest>;
export type RegionSettingsT = Static<typeof RegionSettings>;
export type RepositorySettingsT = Static<typeof RepositorySettings>;
export type ApplicationCreateRequestT = Static<typeof ApplicationCreateRequest>;
export type ApplicationReplaceRequestT = Static<typeof ApplicationReplaceRequest>;
export type ApplicationT = Static<typeof Application>;
export type IdResponseT = Static<typeof IdResponse>;
export type EndpointUpdateResponseT = Static<typeof EndpointUpdateResponse>;
export type ListApplicationsResponseT = Static<typeof ListApplicationsResponse>;
export type AppListItemT = Static<typeof AppListItem>;
export type ListEndpointsResponseT = Static<typeof ListEndpointsResponse>;
export type ApplicationPatchRequestT = Static<typeof ApplicationPatchRequest>;
export type ContainerPatchRequestT = Static<typeof ContainerPatchRequest>;
export type VolumeInListT = Static<typeof VolumeInList>;
export type ListVolumesResponseT = Static<typeof ListVolumesResponse>;
export type PatchVolumeRequestT = Static<typeof PatchVolumeRequest>;
export type UpdateVolumeResponseT = Static<typeof UpdateVolumeResponse>;
