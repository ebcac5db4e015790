/** Statistics of a video library's paid features: transcription and DRM. */
import { Type, type Static } from 'typebox';
import { Double, Int64, Nullable } from './common.js';

export const VideoLibraryStatisticsRange = Type.Object({
  dateFrom: Type.Optional(Type.String({ format: 'date-time', description: 'Start of the period (default: 14 days before `dateTo`).' })),
  dateTo: Type.Optional(Type.String({ format: 'date-time', description: 'End of the period (default: now).' })),
});

const Chart = (description: string) => Nullable(Type.Record(Type.String(), Double()), { description });

export const TranscribingStatistics = Type.Object(
  {
    TotalTranscriptionSeconds: Int64({ description: 'Seconds of video transcribed over the period.' }),
    TranscriptionSecondsChart: Chart('Seconds transcribed per day, keyed by the start of the day.'),
  },
  { additionalProperties: false },
);
export type TranscribingStatisticsT = Static<typeof TranscribingStatistics>;

export const DrmStatistics = Type.Object(
  {
    TotalLicensesIssued: Int64({ description: 'DRM licenses issued over the period.' }),
    LicensesIssuedChart: Chart('Licenses issued per day, keyed by the start of the day.'),
  },
  { additionalProperties: false },
);
export type DrmStatisticsT = Static<typeof DrmStatistics>;
