/** The answers every authenticated route of a Fastify plane can give besides its success, in the specification's error body. */
export const errorResponses = {
  400: { $ref: 'ErrorBody#' },
  401: { $ref: 'ErrorBody#' },
  403: { $ref: 'ErrorBody#' },
  404: { $ref: 'ErrorBody#' },
} as const;
