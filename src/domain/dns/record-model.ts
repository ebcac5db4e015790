/**
 * A DNS record as the zone document stores it, and the way back to the request that made it.
 * Updates and imports both go through `requestOf` → change → `newRecord`, so a record changed
 * later is built by the very rules that built it first.
 */
import type { DnsRecordRequestT, DnsRecordT } from '../../schemas/dns.js';
import { normalizeRecordName } from './validate.js';

/** TTL of a record added without one, in seconds. */
export const DEFAULT_TTL = 300;

/** A record as stored and returned, from a request that `recordProblems` accepted. */
export function newRecord(id: number, r: DnsRecordRequestT): DnsRecordT {
  const type = r.Type ?? 0;
  const hasCoordinates = r.GeolocationLatitude != null || r.GeolocationLongitude != null;
  const latitude = r.GeolocationLatitude ?? 0;
  const longitude = r.GeolocationLongitude ?? 0;
  const accelerated = r.Accelerated ?? false;
  return {
    Id: id,
    Type: type,
    Ttl: r.Ttl ?? DEFAULT_TTL,
    Value: r.Value ?? null,
    Name: normalizeRecordName(r.Name),
    Weight: r.Weight ?? 0,
    Priority: r.Priority ?? 0,
    Port: r.Port ?? 0,
    Flags: r.Flags ?? 0,
    // CAA tags match case-insensitively (RFC 8659); they are kept in their canonical lower case.
    Tag: type === 9 ? (r.Tag?.toLowerCase() ?? null) : (r.Tag ?? null),
    Accelerated: accelerated,
    AcceleratedPullZoneId: 0,
    // The linked resource's id, as text: what clients show for pull zone and script records.
    LinkName: type === 7 ? String(r.PullZoneId) : type === 11 ? String(r.ScriptId) : null,
    // No address database is consulted, so where an address sits is unknown.
    IPGeoLocationInfo: null,
    // Coordinates are echoed; naming the country and city would need a geocoder.
    GeolocationInfo: hasCoordinates ? { Country: null, City: null, Latitude: latitude, Longitude: longitude } : null,
    MonitorStatus: 0,
    MonitorType: r.MonitorType ?? 0,
    GeolocationLatitude: latitude,
    GeolocationLongitude: longitude,
    EnviromentalVariables: r.EnviromentalVariables ?? [],
    LatencyZone: r.LatencyZone ?? null,
    SmartRoutingType: r.SmartRoutingType ?? 0,
    Disabled: r.Disabled ?? false,
    Comment: r.Comment ?? null,
    AutoSslIssuance: r.AutoSslIssuance ?? false,
    // Pending until the background job provisions it (see background.ts).
    AccelerationStatus: accelerated ? 1 : 0,
  };
}

/** The pull zone (type 7) or script (type 11) a record points at; the store keeps it in LinkName. */
export function linkedId(record: DnsRecordT): number | null {
  if (record.Type !== 7 && record.Type !== 11) return null;
  const id = Number(record.LinkName);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** The request that `newRecord` turns back into this record (apart from its id and statuses). */
export function requestOf(record: DnsRecordT): DnsRecordRequestT {
  const link = linkedId(record);
  return {
    Type: record.Type,
    Ttl: record.Ttl,
    Value: record.Value,
    Name: record.Name,
    Weight: record.Weight,
    Priority: record.Priority,
    Port: record.Port,
    Flags: record.Flags,
    Tag: record.Tag,
    PullZoneId: record.Type === 7 ? link : null,
    ScriptId: record.Type === 11 ? link : null,
    Accelerated: record.Accelerated,
    MonitorType: record.MonitorType,
    // GeolocationInfo tells coordinates that were set (even 0, 0) from coordinates never set.
    GeolocationLatitude: record.GeolocationInfo ? record.GeolocationLatitude : null,
    GeolocationLongitude: record.GeolocationInfo ? record.GeolocationLongitude : null,
    LatencyZone: record.LatencyZone,
    SmartRoutingType: record.SmartRoutingType,
    Disabled: record.Disabled,
    EnviromentalVariables: record.EnviromentalVariables,
    Comment: record.Comment,
    AutoSslIssuance: record.AutoSslIssuance,
  };
}

/** The request `old` was made from, with the changes: fields left out or null keep their value. */
export function mergedRequest(old: DnsRecordT, changes: DnsRecordRequestT): DnsRecordRequestT {
  const merged: Record<string, unknown> = { ...requestOf(old) };
  for (const [field, value] of Object.entries(changes)) if (value != null) merged[field] = value;
  return merged as DnsRecordRequestT;
}

/**
 * `old` rebuilt from `merged` (see `mergedRequest`). What the platform tracks about the record
 * (monitor result, acceleration progress) survives unless the setting it depends on changed.
 */
export function updatedRecord(old: DnsRecordT, merged: DnsRecordRequestT): DnsRecordT {
  const next = newRecord(old.Id, merged);
  if (next.MonitorType === old.MonitorType) next.MonitorStatus = old.MonitorStatus;
  if (next.Accelerated === old.Accelerated) {
    next.AccelerationStatus = old.AccelerationStatus;
    next.AcceleratedPullZoneId = old.AcceleratedPullZoneId;
  }
  if (next.Value === old.Value) next.IPGeoLocationInfo = old.IPGeoLocationInfo;
  return next;
}

/**
 * What makes two records the same answer: type, name and data. TTL and the platform's settings are
 * not part of it (RFC 2181 §5: records differing only in TTL are one record), so an import does not
 * add a second copy of a record the zone already serves.
 */
export function recordIdentity(r: DnsRecordT): string {
  const hostLike = r.Type === 2 || r.Type === 4 || r.Type === 6 || r.Type === 8 || r.Type === 10 || r.Type === 12;
  const value = hostLike ? (r.Value ?? '').toLowerCase().replace(/(?<=.)\.$/, '') : (r.Value ?? '');
  return JSON.stringify([r.Type, (r.Name ?? '').toLowerCase(), value, r.Priority, r.Weight, r.Port, r.Flags, r.Tag, r.LinkName]);
}
