/**
 * The only places where an answer may differ from the platform's reference response schema, each
 * with its reason. The reference is the platform's own document and mostly right; an entry here
 * says where the specification, or the reference's own text, says otherwise. Keep it short.
 */

type Schema = Record<string, unknown>;

/** A value the reference's rule at `at` (a schema location, as errors name it) rejects but the answer may carry. */
export interface AllowedValue {
  at: string;
  accept: (value: unknown) => boolean;
  why: string;
}

/** A response schema the reference gets wrong by its own account, replaced for the check. */
export interface AmendedSchema {
  operation: string;
  status: number;
  amend: (schema: Schema) => Schema;
  why: string;
}

/** With `page` above 0 these lists answer the page object the reference's other paged lists declare. */
const arrayOrPage = (array: Schema): Schema => ({
  anyOf: [
    array,
    {
      type: 'object',
      properties: {
        Items: { ...array, nullable: true },
        CurrentPage: { type: 'integer', format: 'int32' },
        TotalItems: { type: 'integer', format: 'int32' },
        HasMoreItems: { type: 'boolean' },
      },
    },
  ],
});

const PAGED_LIST =
  'the reference describes this answer as "a paginated object with Items, CurrentPage, TotalItems and HasMoreItems" when page > 0, but its schema shows only the plain array';

export const AMENDED: AmendedSchema[] = [
  { operation: 'GET /pullzone', status: 200, amend: arrayOrPage, why: PAGED_LIST },
  { operation: 'GET /storagezone', status: 200, amend: arrayOrPage, why: PAGED_LIST },
  {
    operation: 'PUT /library/{libraryId}/videos/{videoId}/outputs/{outputCodecId}',
    status: 400,
    amend: () => ({ type: 'object' }),
    why:
      "spec part 7: every error answers with the specification's error body; the reference shows a bare string for this one 400, " +
      "where the video API's other errors are an object (StatusModel), as ours is",
  },
];

const isNull = (value: unknown) => value === null;

export const ALLOWED: AllowedValue[] = [
  {
    at: 'containers#/components/schemas/ContainerEndpoint/properties/pullZoneId',
    accept: isNull,
    why:
      'an endpoint with no pull zone in front (every anycast endpoint; a CDN endpoint whose zone was deleted, or none was linked) has no id to give: ' +
      'the reference requires a non-empty string even where no zone can exist, and spec 2.2 states only its type',
  },
  {
    at: 'containers#/components/schemas/EndpointListItem/properties/pullZoneId',
    accept: isNull,
    why: 'as ContainerEndpoint.pullZoneId: the same endpoint, listed',
  },
  {
    at: 'containers#/components/schemas/ContainerTemplate/properties/imageDigest',
    accept: isNull,
    why:
      'spec 2.2: response fields repeat the request fields, where imageDigest is optional; the platform fills it by asking the registry, ' +
      'which edgeplane does not do when a container is saved (a container may name a registry it has no record of), and an invented digest ' +
      'would misstate the image; POST /mc/registries/digest asks the registry, and imageDigest pins what it answers',
  },
];
