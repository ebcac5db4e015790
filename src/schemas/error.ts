/** The error body of the specification's part 7, plus the three fields core-API clients read. */
import { Type, type Static } from 'typebox';

export const ErrorBody = Type.Object(
  {
    title: Type.String({ description: 'Short summary of the problem kind, e.g. "Bad Request".' }),
    status: Type.Integer({ description: 'The HTTP status code, repeated.' }),
    detail: Type.String({ description: 'What went wrong, for people.' }),
    instance: Type.String({ description: 'The request path that produced the error.' }),
    errors: Type.Array(
      Type.Object({
        field: Type.String({ description: 'The offending field, named as the client sent it (e.g. `containerTemplates[0].imageDigest`).' }),
        message: Type.String({ description: 'Why the field was rejected.' }),
      }),
      { description: 'One entry per rejected field; empty when the problem is not about a field.' },
    ),
    id: Type.String({ description: 'Request id; the same value is in the `X-Request-Id` response header and the logs.' }),
    ErrorKey: Type.Optional(Type.String({ description: 'Machine-readable error key (core API).' })),
    Field: Type.Optional(Type.String({ description: 'The first offending field, or an empty string (core API).' })),
    Message: Type.Optional(Type.String({ description: 'The message to show to users (core API).' })),
  },
  { $id: 'ErrorBody', description: 'Problem details of a failed request.' },
);
export type ErrorBodyT = Static<typeof ErrorBody>;

/** One rejected field of a request, as the error body's `errors` lists it. */
export interface FieldProblem {
  field: string;
  message: string;
}
