/**
 * Image registries of the container API: the registries an account keeps (with the credentials
 * edgeplane uses to read them), and the questions asked of a registry about its images. The
 * registry operations are the reference's; `hostName` in a request is an edgeplane extension.
 */
import { Type, type Static } from 'typebox';
import { DateTime, Int32, Int64, Nullable, StringEnum } from './common.js';
import { EndpointRequest, IMAGE_NAME_PATTERN, IMAGE_TAG_PATTERN } from './containers.js';
import { CursorPage } from './paging.js';

const closed = { additionalProperties: false } as const;

/**
 * Which registry service: two public ones, and the platform's own (`vendorRegistry`, the
 * reference's value with its vendor word made neutral).
 */
export const REGISTRY_TYPES = ['dockerHub', 'gitHub', 'vendorRegistry'] as const;
export type RegistryType = (typeof REGISTRY_TYPES)[number];

export const SAVE_REGISTRY_STATUSES = ['saved', 'secretsValidationFailed', 'unknownErrorOccured', 'notFound', 'invalidInput'] as const;
export const REMOVE_REGISTRY_STATUSES = ['notFound', 'inUse', 'removed'] as const;

export const RegistryCredentials = Type.Object(
  {
    userName: Type.String({ minLength: 1, description: 'User name at the registry.' }),
    password: Type.String({ minLength: 1, description: 'Password or access token at the registry.' }),
  },
  { ...closed, description: 'Credentials edgeplane signs in to the registry with; checked with the registry before they are saved.' },
);

/** Body of POST /mc/registries and PUT /mc/registries/{registryId}. */
export const ContainerRegistryRequest = Type.Object(
  {
    displayName: Type.String({ minLength: 1, maxLength: 50, description: 'Name shown for the registry (1 to 50 characters).' }),
    type: Type.Optional(
      StringEnum(REGISTRY_TYPES, {
        description: 'The registry service: `dockerHub` (docker.io, the default), `gitHub` (ghcr.io) or `vendorRegistry` (needs `hostName`).',
      }),
    ),
    hostName: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 253,
        description:
          "edgeplane extension: where the registry is, as `host[:port]` (HTTPS) or `http://host[:port]` / `https://host[:port]`; the type's own host when left out.",
      }),
    ),
    passwordCredentials: Type.Optional(RegistryCredentials),
  },
  { ...closed, description: 'A registry to keep. On an update, credentials left out keep the stored ones.' },
);

export const SaveContainerRegistryResult = Type.Object(
  {
    id: Nullable(Int64(), { description: 'Id of the registry saved.' }),
    error: Nullable(Type.String(), { description: 'Why it was not saved; null when it was.' }),
    status: StringEnum(SAVE_REGISTRY_STATUSES, { description: '`saved` (failures are answered with an error status and body instead).' }),
  },
  { ...closed, description: 'The outcome of saving a registry.' },
);

export const ContainerRegistry = Type.Object(
  {
    id: Int64({ description: 'Identifier of the registry; containers name it in `imageRegistryId`.' }),
    accountId: Nullable(Type.String(), { description: 'Id of the owning account.' }),
    userId: Nullable(Type.String(), { description: 'Owner (the GUID of the account, as `UserId` elsewhere).' }),
    namespaceId: Type.String({ description: "Namespace the account's applications run in." }),
    displayName: Type.String({ description: 'Name shown for the registry.' }),
    hostName: Type.String({ description: 'Where the registry is.' }),
    userName: Nullable(Type.String(), { description: 'User name edgeplane signs in with; null for anonymous access.' }),
    firstPasswordSymbols: Nullable(Type.String(), {
      description: 'The first characters of the password, to recognize it (at most 3, never more than an eighth of it).',
    }),
    lastPasswordSymbols: Nullable(Type.String(), { description: 'The last characters of the password, likewise.' }),
    createdAt: DateTime({ description: 'When the registry was added.' }),
    isPublic: Nullable(Type.Boolean(), { description: 'True when edgeplane reads the registry without credentials.' }),
    isPlatformManaged: Type.Boolean({ description: "True for registries the platform keeps itself; the account's own are false." }),
    lastUpdatedAt: Nullable(DateTime(), { description: 'When it was last changed; null when never.' }),
  },
  { ...closed, description: 'An image registry of the account.' },
);

export const ListContainerRegistriesResponse = CursorPage(
  Type.Array(ContainerRegistry, { description: 'Registries of the account, oldest first.' }),
  Nullable(Type.String(), { description: 'Always null: the list is one page.' }),
  "The account's image registries.",
);

export const RemoveContainerRegistryResult = Type.Object(
  {
    status: StringEnum(REMOVE_REGISTRY_STATUSES, { description: '`removed` (a registry in use is answered 409 instead).' }),
    applications: Nullable(Type.Array(Type.String()), { description: 'Applications that use the registry; null once removed.' }),
  },
  { ...closed, description: 'The outcome of deleting a registry.' },
);

export const RegistryParams = Type.Object({ registryId: Int64({ minimum: 1, description: 'Id of the registry.' }) });

// ---------------------------------------------------------------------------------------------
// Questions asked of a registry

const registryId = Type.String({
  minLength: 1,
  maxLength: 100,
  description: "The registry to ask: `dockerhub` or `github` (public, anonymous), or the id of one of the account's registries.",
});
const imageName = Type.String({ minLength: 1, maxLength: 100, pattern: IMAGE_NAME_PATTERN, description: 'Image name, e.g. `nginx`.' });
const imageNamespace = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: IMAGE_NAME_PATTERN,
  description: 'Namespace (owner) of the image, e.g. `library`.',
});
const tag = Type.String({ minLength: 1, maxLength: 100, pattern: IMAGE_TAG_PATTERN, description: 'Tag of the image, e.g. `1.27-alpine`.' });

export const SearchPublicContainerImagesRequest = Type.Object(
  {
    registryId,
    prefix: Type.String({ minLength: 1, maxLength: 100, description: 'Start of the image name, or of `namespace/name`.' }),
    size: Type.Optional(Int32({ minimum: 1, maximum: 100, description: 'Images per page (1 to 100, default 10).' })),
    page: Type.Optional(Int32({ minimum: 1, maximum: 100, description: 'Page to return (1 to 100, default 1).' })),
  },
  { ...closed, description: 'Find images of a registry by the start of their name.' },
);

export const ListContainerImagesRequest = Type.Object({ registryId }, { ...closed, description: 'List every image of a registry.' });

export const ListContainerImageTagsRequest = Type.Object({ registryId, imageName, imageNamespace }, { ...closed, description: 'List the tags of an image.' });

/** One image at one tag: the body of the digest, image configuration and suggestion questions. */
export const ImageAtTagRequest = Type.Object({ registryId, imageName, imageNamespace, tag }, { ...closed, description: 'An image at one of its tags.' });

export const ContainerImage = Type.Object(
  {
    id: Type.String({ description: 'Name of the image within its namespace.' }),
    namespace: Type.String({ description: 'Namespace (owner) of the image.' }),
  },
  { ...closed, description: 'An image of a registry.' },
);

export const ContainerImages = Type.Array(ContainerImage, { description: 'Images, in name order.' });

export const ContainerImageTag = Type.Object({ name: Type.String({ description: 'The tag.' }) }, { ...closed, description: 'A tag of an image.' });

export const ContainerImageTags = Type.Array(ContainerImageTag, { description: 'Tags of the image, as the registry lists them.' });

export const ImageTagInfo = Type.Object(
  {
    imageNamespace: Type.String({ description: 'Namespace of the image.' }),
    image: Type.String({ description: 'Name of the image.' }),
    tag: Type.String({ description: 'The tag asked about.' }),
    digest: Type.String({
      description: 'Content digest the tag points at now (`sha256:…`), as the registry reports it; pin a container to it with `imageDigest`.',
    }),
  },
  { ...closed, description: 'What a tag points at.' },
);

export const VolumeSuggestion = Type.Object(
  {
    containerPath: Type.String({ description: 'Path the image declares as a volume.' }),
    suggestedVolumeName: Type.String({ description: 'A volume name made from the path.' }),
  },
  { ...closed, description: 'A volume the image asks for.' },
);

export const ImageConfig = Type.Object(
  {
    endpointSuggestions: Type.Array(EndpointRequest, {
      description: 'One endpoint per port the image exposes: a CDN endpoint for TCP, an anycast one otherwise.',
    }),
    volumeSuggestions: Type.Array(VolumeSuggestion, { description: 'One volume per path the image declares as a volume.' }),
  },
  { ...closed, description: 'Endpoints and volumes an image calls for, read from its configuration.' },
);

export const EnvironmentVariableSuggestion = Type.Object(
  {
    name: Type.String({ description: 'Name of the variable.' }),
    defaultValue: Nullable(Type.String(), { description: 'Value the image sets.' }),
    description: Nullable(Type.String(), { description: 'What it is for; null, as images do not say.' }),
    required: Type.Boolean({ description: 'False: the image sets a value already.' }),
  },
  { ...closed, description: 'An environment variable the image sets.' },
);

export const ContainerConfigSuggestions = Type.Object(
  {
    endpointSuggestions: ImageConfig.properties.endpointSuggestions,
    environmentVariablesSuggestions: Type.Array(EnvironmentVariableSuggestion, { description: 'The variables the image sets, but `PATH` and `HOME`.' }),
    volumeSuggestions: ImageConfig.properties.volumeSuggestions,
    appName: Nullable(Type.String(), { description: 'Name for an application: the image title label, else the image name.' }),
    description: Nullable(Type.String(), { description: 'The image description label; null without one.' }),
    instructions: Nullable(Type.String(), { description: 'Where the image documentation is (its documentation label); null without one.' }),
    registryUrl: Nullable(Type.String(), { description: 'Address of the registry the image was read from.' }),
  },
  { ...closed, description: 'A starting configuration for a container running the image.' },
);

export type ContainerRegistryRequestT = Static<typeof ContainerRegistryRequest>;
export type ContainerRegistryT = Static<typeof ContainerRegistry>;
export type SaveContainerRegistryResultT = Static<typeof SaveContainerRegistryResult>;
export type ListContainerRegistriesResponseT = Static<typeof ListContainerRegistriesResponse>;
export type RemoveContainerRegistryResultT = Static<typeof RemoveContainerRegistryResult>;
export type SearchPublicContainerImagesRequestT = Static<typeof SearchPublicContainerImagesRequest>;
export type ListContainerImagesRequestT = Static<typeof ListContainerImagesRequest>;
export type ListContainerImageTagsRequestT = Static<typeof ListContainerImageTagsRequest>;
export type ImageAtTagRequestT = Static<typeof ImageAtTagRequest>;
export type ContainerImageT = Static<typeof ContainerImage>;
export type ImageTagInfoT = Static<typeof ImageTagInfo>;
export type ImageConfigT = Static<typeof ImageConfig>;
export type ContainerConfigSuggestionsT = Static<typeof ContainerConfigSuggestions>;
export type VolumeSuggestionT = Static<typeof VolumeSuggestion>;
