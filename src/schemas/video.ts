/**
 * The videos and collections of a video library, as the video API sends and takes them (the
 * platform's video API reference: its models, in camelCase, enums as integers). Playback, figures
 * and file reports are in video-reports.ts.
 */
import { Type, type Static } from 'typebox';
import { DateTime, Double, Int32, Int64, IntEnum, Nullable } from './common.js';

/** A video's processing state; index = wire value. */
export const VIDEO_STATUSES = [
  'Created',
  'Uploaded',
  'Processing',
  'Transcoding',
  'Finished',
  'Error',
  'UploadFailed',
  'JitSegmenting',
  'JitPlaylistsCreated',
] as const;
export type VideoStatusName = (typeof VIDEO_STATUSES)[number];
export const VideoStatus = Object.fromEntries(VIDEO_STATUSES.map((name, i) => [name, i])) as { [K in VideoStatusName]: number };

/** How serious a transcoding message is; index = wire value. */
export const MESSAGE_LEVELS = ['Undefined', 'Information', 'Warning', 'Error'] as const;
/** What a transcoding message is about; index = wire value. */
export const ISSUE_CODES = [
  'Undefined',
  'StreamLengthsDifference',
  'TranscodingWarnings',
  'IncompatibleResolution',
  'InvalidFramerate',
  'VideoExceededMaxDuration',
  'AudioExceededMaxDuration',
  'OriginalCorrupted',
  'TranscriptionFailed',
  'JitIncompatible',
  'JitFailed',
  'CaptionGenerationFailed',
] as const;
/** Output codec ids of `PUT …/outputs/{outputCodecId}`; index = wire value. */
export const OUTPUT_CODEC_IDS = ['x264', 'vp9', 'hevc', 'av1'] as const;

const indexes = (values: readonly string[]) => values.map((_, i) => i);
const SmartStatus = (description: string) => Nullable(IntEnum(indexes(['None', 'Queued', 'InProgress', 'Finished', 'Failed'])), { description });

export const Chapter = Type.Object(
  {
    title: Type.String({ minLength: 1, description: 'Name of the chapter.' }),
    start: Int32({ minimum: 0, description: 'Where the chapter begins, in seconds from the start.' }),
    end: Int32({ minimum: 0, description: 'Where the chapter ends, in seconds from the start.' }),
  },
  { additionalProperties: false, description: 'A named stretch of the video.' },
);

export const Moment = Type.Object(
  {
    label: Type.String({ minLength: 1, description: 'What happens at this point.' }),
    timestamp: Int32({ minimum: 0, description: 'The point, in seconds from the start.' }),
  },
  { additionalProperties: false, description: 'A labelled point in the video.' },
);

export const MetaTag = Type.Object(
  {
    property: Nullable(Type.String(), { description: 'Name of the tag (for example `description`).' }),
    value: Nullable(Type.String(), { description: 'Value of the tag.' }),
  },
  { additionalProperties: false, description: 'A free name/value pair kept with the video.' },
);

export const Caption = Type.Object(
  {
    srclang: Nullable(Type.String(), { description: 'Language code of the captions track, which also names its file.' }),
    label: Nullable(Type.String(), { description: 'Name of the track as players show it.' }),
    version: Int32({ description: 'Raised each time the track is uploaded again, so players fetch the new file.' }),
  },
  { additionalProperties: false, description: 'A captions track of the video.' },
);

export const TranscodingMessage = Type.Object(
  {
    timeStamp: DateTime({ description: 'When the message was recorded.' }),
    level: IntEnum(indexes(MESSAGE_LEVELS), { description: 'Severity: 0 undefined, 1 information, 2 warning, 3 error.' }),
    issueCode: IntEnum(indexes(ISSUE_CODES), { description: 'What the message is about (0 undefined, 7 original corrupted, …).' }),
    message: Nullable(Type.String(), { description: 'The message, for people.' }),
    value: Nullable(Type.String(), { description: 'A value the message refers to, when it has one.' }),
  },
  { additionalProperties: false, description: 'Something the encoder reported about the video.' },
);

const SmartGenerateFeatures = Type.Object(
  {
    title: SmartStatus('State of the title generation.'),
    chapters: SmartStatus('State of the chapters generation.'),
    moments: SmartStatus('State of the moments generation.'),
  },
  { additionalProperties: false },
);

export const Video = Type.Object(
  {
    videoLibraryId: Int64({ description: 'The library the video belongs to.' }),
    guid: Type.String({ minLength: 1, description: 'Identifier of the video (a GUID); also the folder of its files in the storage zone.' }),
    title: Type.String({ minLength: 1, description: 'Title of the video.' }),
    dateUploaded: DateTime({ description: 'When the video was created.' }),
    views: Int64({ description: 'How many times the video was played.' }),
    isPublic: Type.Boolean({ description: 'Whether the video is listed publicly.' }),
    length: Int32({ description: 'Duration in whole seconds; 0 until the source is probed.' }),
    status: IntEnum(indexes(VIDEO_STATUSES), {
      description: '0 created, 1 uploaded, 2 processing, 3 transcoding, 4 finished, 5 error, 6 upload failed, 7 and 8 just-in-time packaging.',
    }),
    framerate: Double({ description: 'Frames per second of the source; 0 until probed.' }),
    rotation: Nullable(Type.Integer(), { description: 'Rotation of the source in degrees, when it declares one.' }),
    width: Int32({ description: 'Width of the source in pixels; 0 until probed.' }),
    height: Int32({ description: 'Height of the source in pixels; 0 until probed.' }),
    availableResolutions: Nullable(Type.String(), { description: 'Comma-separated renditions ready to play (`240p,360p`).' }),
    outputCodecs: Type.String({ minLength: 1, description: 'Comma-separated codecs the video is encoded with.' }),
    thumbnailCount: Int32({ description: 'How many numbered thumbnails the encoder made.' }),
    encodeProgress: Int32({ description: 'Encoding progress, 0 to 100.' }),
    storageSize: Int64({ description: "Bytes of the video's files in the library's storage zone." }),
    captions: Nullable(Type.Array(Caption), { description: 'The captions tracks.' }),
    hasMP4Fallback: Type.Boolean({ description: 'Whether MP4 renditions were made besides the HLS ones.' }),
    collectionId: Nullable(Type.String(), { description: 'The collection the video is in; empty when in none.' }),
    thumbnailFileName: Nullable(Type.String(), { description: "Name of the main thumbnail's file in the video's folder." }),
    thumbnailUrl: Nullable(Type.String(), { description: 'Address of the main thumbnail on the library pull zone.' }),
    thumbnailBlurhash: Nullable(Type.String(), { description: 'A compact blurred placeholder of the thumbnail, when computed.' }),
    averageWatchTime: Int64({ description: 'Average seconds watched per view.' }),
    totalWatchTime: Int64({ description: 'Seconds watched over all views.' }),
    category: Nullable(Type.String(), { description: 'A category detected from the content; `unknown` when none.' }),
    chapters: Nullable(Type.Array(Chapter), { description: 'The chapters.' }),
    moments: Nullable(Type.Array(Moment), { description: 'The moments.' }),
    metaTags: Nullable(Type.Array(MetaTag), { description: 'The meta tags.' }),
    transcodingMessages: Nullable(Type.Array(TranscodingMessage), { description: 'What the encoder reported, oldest first.' }),
    jitEncodingEnabled: Nullable(Type.Boolean(), { description: 'Whether renditions are made on first request rather than ahead.' }),
    smartGenerateStatus: SmartStatus('State of the generated metadata, when asked for.'),
    smartGenerateFeaturesStatus: Type.Union([SmartGenerateFeatures, Type.Null()], { description: 'State of each generated feature.' }),
    hasOriginal: Nullable(Type.Boolean(), { description: 'Whether the uploaded source file is kept.' }),
    originalHash: Nullable(Type.String(), { description: 'SHA-256 of the uploaded source file (hex).' }),
    hasHighQualityPreview: Nullable(Type.Boolean(), { description: 'Whether a high-quality animated preview exists.' }),
  },
  { additionalProperties: false, description: 'A video of a library.' },
);
export type VideoT = Static<typeof Video>;

/** A page of a video API list: its own shape (camelCase, a 1-based page, no HasMoreItems). */
const PageOf = <T extends ReturnType<typeof Type.Object>>(item: T, what: string) =>
  Type.Object(
    {
      totalItems: Int64({ description: `Number of ${what} over all pages.` }),
      currentPage: Int64({ description: 'The page number returned, from 1.' }),
      itemsPerPage: Int32({ description: 'Items per page asked for.' }),
      items: Nullable(Type.Array(item), { description: `The ${what} on this page.` }),
    },
    { additionalProperties: false, description: `One page of ${what}.` },
  );

export const VideoPage = PageOf(Video, 'videos');

export const Collection = Type.Object(
  {
    videoLibraryId: Int64({ description: 'The library the collection belongs to.' }),
    guid: Nullable(Type.String(), { description: 'Identifier of the collection (a GUID).' }),
    name: Nullable(Type.String(), { description: 'Name of the collection.' }),
    videoCount: Int64({ description: 'How many videos are in the collection.' }),
    totalSize: Int64({ description: 'Bytes of the files of its videos.' }),
    previewVideoIds: Nullable(Type.String(), { description: 'Comma-separated ids of up to three of its videos, newest first.' }),
    previewImageUrls: Nullable(Type.Array(Type.String()), { description: 'Thumbnail addresses of those videos, when thumbnails were asked for.' }),
  },
  { additionalProperties: false, description: 'A named group of videos of a library.' },
);
export type CollectionT = Static<typeof Collection>;

export const CollectionPage = PageOf(Collection, 'collections');

/** The platform's plain answer to an action. */
export const StatusAnswer = Type.Object(
  {
    success: Type.Boolean({ description: 'Whether the action was carried out.' }),
    message: Nullable(Type.String(), { description: 'What happened, for people.' }),
    statusCode: Int32({ description: 'The HTTP status of the answer, repeated.' }),
  },
  { additionalProperties: false, description: 'Outcome of an action.' },
);
export type StatusAnswerT = Static<typeof StatusAnswer>;

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

export const VideoCreateBody = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 1000, description: 'Title of the new video.' }),
    collectionId: Type.Optional(Nullable(Type.String(), { description: 'A collection of the library to put the video in.' })),
    thumbnailTime: Type.Optional(Nullable(Int32({ minimum: 0 }), { description: 'Where the main thumbnail is taken from, in milliseconds.' })),
  },
  { description: 'A video to create; its file comes with a later upload.' },
);
export type VideoCreateBodyT = Static<typeof VideoCreateBody>;

export const VideoUpdateBody = Type.Object(
  {
    title: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 1000 }), { description: 'New title.' })),
    collectionId: Type.Optional(
      Nullable(Type.String(), { title: 'Collection', description: 'Collection to move the video to; an empty string takes it out of its collection.' }),
    ),
    chapters: Type.Optional(Nullable(Type.Array(Chapter, { maxItems: 1000 }), { description: 'Replaces the chapters.' })),
    moments: Type.Optional(Nullable(Type.Array(Moment, { maxItems: 1000 }), { description: 'Replaces the moments.' })),
    metaTags: Type.Optional(Nullable(Type.Array(MetaTag, { maxItems: 1000 }), { description: 'Replaces the meta tags.' })),
  },
  { description: 'Fields of a video to change; absent or null ones stay.' },
);
export type VideoUpdateBodyT = Static<typeof VideoUpdateBody>;

export const CollectionBody = Type.Object(
  { name: Type.Optional(Nullable(Type.String({ maxLength: 1000 }), { description: 'Name of the collection.' })) },
  { description: 'A collection to create, or its new name.' },
);
export type CollectionBodyT = Static<typeof CollectionBody>;

export const FetchBody = Type.Object(
  {
    url: Type.String({ minLength: 1, maxLength: 8192, description: 'Address (http or https) of the video file to fetch.' }),
    headers: Type.Optional(
      Nullable(Type.Record(Type.String(), Type.String()), { description: 'Headers to send with the fetch (an authorization header, for one).' }),
    ),
    title: Type.Optional(Nullable(Type.String({ maxLength: 1000 }), { description: 'Title of the new video; default: the last segment of the address.' })),
  },
  { description: 'A video to fetch from an address.' },
);
export type FetchBodyT = Static<typeof FetchBody>;

export const CaptionAddBody = Type.Object(
  {
    srclang: Type.Optional(Nullable(Type.String(), { title: 'Language code', description: 'Language code; the path names it already.' })),
    label: Type.Optional(Nullable(Type.String({ maxLength: 200 }), { description: 'Name of the track as players show it.' })),
    captionsFile: Type.Optional(Nullable(Type.String(), { description: 'The captions file (WebVTT or SubRip), base64-encoded.' })),
  },
  { description: 'A captions track to add or replace.' },
);
export type CaptionAddBodyT = Static<typeof CaptionAddBody>;

export const CaptionValidation = Type.Object(
  {
    valid: Type.Boolean({ description: 'Whether the captions file could be read.' }),
    errorList: Nullable(Type.Array(Type.String()), { description: 'Why it could not.' }),
    warningList: Nullable(Type.Array(Type.String()), { description: 'What was odd but accepted.' }),
    warningMessage: Nullable(Type.String(), { description: 'The warnings, as one sentence.' }),
  },
  { additionalProperties: false },
);
export type CaptionValidationT = Static<typeof CaptionValidation>;

export const CaptionAnswer = Type.Object(
  { ...StatusAnswer.properties, data: Type.Union([CaptionValidation, Type.Null()], { description: 'How the captions file was judged.' }) },
  { additionalProperties: false, description: 'Outcome of a captions upload.' },
);

export const SmartGenerateBody = Type.Object(
  {
    generateTitle: Type.Optional(Nullable(Type.Boolean())),
    generateDescription: Type.Optional(Nullable(Type.Boolean())),
    generateChapters: Type.Optional(Nullable(Type.Boolean())),
    generateMoments: Type.Optional(Nullable(Type.Boolean())),
    sourceLanguage: Type.Optional(Nullable(Type.String(), { description: 'Language spoken in the video.' })),
  },
  { description: 'What metadata to generate.' },
);

export const TranscribeBody = Type.Object(
  {
    ...SmartGenerateBody.properties,
    targetLanguages: Type.Optional(Nullable(Type.Array(Type.String()), { description: 'Languages to make captions in.' })),
  },
  { description: 'What a transcription should produce.' },
);
