/** What a question asked of a registry can answer besides the usual errors: 422 when the registry could not give the answer. */
export const registryErrorResponses = { 422: { $ref: 'ErrorBody#' } } as const;
