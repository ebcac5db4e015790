/** Statistics answers: charts keyed by the start of each period, from what the planes really served and stored. */
import { Type, type Static } from 'typebox';
import { Int64, Nullable } from './common.js';

/** `{"2026-11-24T00:00:00Z": 1024, …}`: one value per day (or hour), oldest first. */
export const Chart = (description: string) => Nullable(Type.Record(Type.String(), Int64()), { description });

export const StatisticsRange = Type.Object({
  dateFrom: Type.Optional(Type.String({ format: 'date-time', description: 'Start of the period (default: 30 days before `dateTo`).' })),
  dateTo: Type.Optional(Type.String({ format: 'date-time', description: 'End of the period (default: now).' })),
});

export const EgressRange = Type.Object({
  ...StatisticsRange.properties,
  hourly: Type.Optional(Type.Boolean({ default: false, description: 'One point per hour instead of per day.' })),
});

export const StorageZoneStatistics = Type.Object(
  {
    StorageUsedChart: Chart('Bytes stored at the end of each day.'),
    FileCountChart: Chart('Files stored at the end of each day.'),
  },
  { additionalProperties: false },
);
export type StorageZoneStatisticsT = Static<typeof StorageZoneStatistics>;

export const StorageZoneEgressStatistics = Type.Object(
  {
    HttpEgressChart: Chart('Bytes downloaded through the file API, per period.'),
    S3EgressChart: Chart('Bytes downloaded through the S3 API with signed requests, per period.'),
    S3PresignedEgressChart: Chart('Bytes downloaded through presigned S3 URLs, per period.'),
    FtpEgressChart: Chart('Bytes downloaded over FTP (edgeplane has no FTP server: always zero).'),
    SftpEgressChart: Chart('Bytes downloaded over SFTP (edgeplane has no SFTP server: always zero).'),
    TotalEgressChart: Chart('Bytes downloaded over every protocol, per period.'),
    HttpEgressTotal: Int64({ description: 'Bytes downloaded through the file API over the period.' }),
    S3EgressTotal: Int64({ description: 'Bytes downloaded through signed S3 requests over the period.' }),
    S3PresignedEgressTotal: Int64({ description: 'Bytes downloaded through presigned S3 URLs over the period.' }),
    FtpEgressTotal: Int64({ description: 'Always zero.' }),
    SftpEgressTotal: Int64({ description: 'Always zero.' }),
    TotalEgress: Int64({ description: 'Bytes downloaded over every protocol over the period.' }),
  },
  { additionalProperties: false },
);
export type StorageZoneEgressStatisticsT = Static<typeof StorageZoneEgressStatistics>;
