/**
 * What is counted per pull zone (subject `pullZone:<id>`): the edge adds to these as it serves,
 * the operator's usage route adds bytes too, and billing reads them.
 */
export const pullZoneSubject = (id: number | string) => `pullZone:${id}`;

/** Bytes served, every region together. */
export const BANDWIDTH = 'bandwidth';
/** Requests served. */
export const REQUESTS = 'requests';
/** Bytes served from one edge region (`bandwidth.DE`), counted besides `bandwidth`, so billing can price them by region. */
export const regionalBandwidth = (regionCode: string) => `${BANDWIDTH}.${regionCode}`;
