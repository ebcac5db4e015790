/** Path and query parts shared by the DNS routes. */
import { Type } from 'typebox';
import { Int32, Int64 } from '../../../../schemas/common.js';
import { PageQuery } from '../../../../schemas/paging.js';

/** Path of the operations on one record. */
export const DnsRecordParams = Type.Object({
  zoneId: Int64({ minimum: 1, description: 'Identifier of the DNS zone the record belongs to.' }),
  id: Int64({ minimum: 1, description: 'Identifier of the DNS record.' }),
});

/** The DNS lists always answer the page object: their page starts at 1 (as on the platform). */
export const dnsPaging = {
  page: Int32({ minimum: 1, maximum: 2147483647, default: 1, description: 'Page number, starting at 1.' }),
  perPage: PageQuery.properties.perPage,
  search: Type.Optional(Type.String({ description: 'Only items whose text contains this, ignoring case.' })),
};

/** Answers of record writes besides their success: a lost race, once the retries ran out. */
export const writeResponses = { 409: { $ref: 'ErrorBody#' } } as const;
