/**
 * What the video API reports about a video besides the video itself: its play data, heatmap and
 * statistics, its files by resolution and by kind, and its oEmbed description. Vendor words in
 * the platform's names are neutral here (`adPublisherId`, `drmSchemeB…`), as in the library.
 */
import { type Static, Type } from 'typebox';
import { DateTime, Int32, Int64, Nullable, StringEnum } from './common.js';
import { StatusAnswer, Video } from './video.js';

const Counts = (description: string) => Nullable(Type.Record(Type.String(), Int64()), { description });

export const Heatmap = Type.Object(
  {
    heatmap: Nullable(Type.Record(Type.String(), Int32()), {
      description: 'Intensity per segment of the video, by its index from 0: 100 for the most served segment, a segment never served left out.',
    }),
  },
  { additionalProperties: false, description: 'Which parts of the video were watched.' },
);
export type HeatmapT = Static<typeof Heatmap>;

export const VideoStatistics = Type.Object(
  {
    viewsChart: Counts('Views per day (or hour), by its start.'),
    watchTimeChart: Counts('Seconds watched per day (or hour), by its start.'),
    countryViewCounts: Counts('Views by country code.'),
    countryWatchTime: Counts('Seconds watched by country code.'),
    engagementScore: Int32({ description: 'Share of the video watched on average, 0 to 100.' }),
  },
  { additionalProperties: false, description: 'Views and watch time of a library or of one video.' },
);
export type VideoStatisticsT = Static<typeof VideoStatistics>;

export const PlayData = Type.Object(
  {
    video: Type.Union([Video, Type.Null()], { description: 'The video.' }),
    libraryName: Nullable(Type.String(), { description: 'Name of its library.' }),
    pullZoneId: Int64({ description: "The library's pull zone, which serves the files." }),
    captionsPath: Nullable(Type.String(), { description: 'Address of the captions folder.' }),
    seekPath: Nullable(Type.String(), { description: 'Address of the seek thumbnails.' }),
    thumbnailUrl: Nullable(Type.String(), { description: 'Address of the main thumbnail.' }),
    fallbackUrl: Nullable(Type.String(), { description: 'Address of the MP4 fallback, when the library makes one.' }),
    videoPlaylistUrl: Nullable(Type.String(), { description: 'Address of the HLS master playlist.' }),
    originalUrl: Nullable(Type.String(), { description: 'Address of the original file, when the library exposes it.' }),
    previewUrl: Nullable(Type.String(), { description: 'Address of the animated preview.' }),
    controls: Nullable(Type.String(), { description: "The player's controls, comma-separated." }),
    enableDRM: Type.Boolean({ description: 'Whether playback is DRM-protected.' }),
    drmVersion: Int32({ description: 'DRM version of the library.' }),
    playerKeyColor: Nullable(Type.String(), { description: "The player's accent colour." }),
    vastTagUrl: Nullable(Type.String(), { description: 'Advertising tag address.' }),
    adPublisherId: Nullable(Type.String(), { description: 'Advertising publisher id.' }),
    captionsFontSize: Int32({ description: 'Captions font size.' }),
    captionsFontColor: Nullable(Type.String(), { description: 'Captions colour.' }),
    captionsBackground: Nullable(Type.String(), { description: 'Captions background colour.' }),
    uiLanguage: Nullable(Type.String(), { description: "The player's language." }),
    allowEarlyPlay: Type.Boolean({ description: 'Whether the video plays before every rendition is ready.' }),
    tokenAuthEnabled: Type.Boolean({ description: 'Whether the pull zone asks for signed addresses.' }),
    enableMP4Fallback: Type.Boolean({ description: 'Whether MP4 renditions are made.' }),
    showHeatmap: Type.Boolean({ description: 'Whether the player shows the heatmap.' }),
    fontFamily: Nullable(Type.String(), { description: "The player's font." }),
    playbackSpeeds: Nullable(Type.String(), { description: 'Speeds the player offers, comma-separated.' }),
    drmSchemeBMinClientSecurityLevel: Nullable(Int32(), { description: 'Lowest client security level DRM scheme B accepts.' }),
    drmSchemeBEmeRobustness: Nullable(Type.String(), { description: 'Robustness DRM scheme B asks of the browser.' }),
    drmSchemeBSdOnlyForL3: Type.Boolean({ description: 'Whether the least secure clients of scheme B get standard definition only.' }),
    maxSoftwareDrmSchemeBResolution: Nullable(Int32(), { description: 'Highest resolution scheme B serves to software clients.' }),
    zoneTier: Nullable(Int32(), { description: "Tier of the library's pull zone." }),
    isPlayable: Type.Boolean({ description: 'Whether the video can be played now.' }),
    isPlaylistPlayable: Type.Boolean({ description: 'Whether the HLS playlist is ready.' }),
    preferredPlaybackSource: StringEnum(['None', 'Playlist', 'Original'] as const, { description: 'What the player should play.' }),
    rememberPlayerPosition: Type.Boolean({ description: 'Whether the player resumes where the viewer stopped.' }),
    customCss: Nullable(Type.String(), { description: 'Extra styles for the player page.' }),
    exposeVideoMetadata: Type.Boolean({ description: 'Whether the player page shows the metadata.' }),
    enableCompactControls: Type.Boolean({ description: 'Whether the player uses its compact controls.' }),
  },
  { additionalProperties: false, description: 'What a player needs to play a video.' },
);

const ResolutionReference = Type.Object(
  {
    resolution: Nullable(Type.String(), { description: 'The rendition (`720p`).' }),
    path: Nullable(Type.String(), { description: "Its file or folder in the video's folder." }),
  },
  { additionalProperties: false },
);

export const StorageObject = Type.Object(
  {
    guid: Nullable(Type.String(), { description: 'Identifier of the stored file.' }),
    storageZoneName: Nullable(Type.String(), { description: 'The storage zone.' }),
    path: Nullable(Type.String(), { description: 'Folder of the file, from the zone root (`/zone/guid/`).' }),
    objectName: Nullable(Type.String(), { description: 'Name of the file.' }),
    length: Int64({ description: 'Size in bytes.' }),
    lastChanged: DateTime({ description: 'When it was last written.' }),
    serverId: Int32({ description: 'Always 0 here.' }),
    isDirectory: Type.Boolean({ description: 'Whether it is a folder.' }),
    userId: Nullable(Type.String(), { description: 'Owner of the zone.' }),
    contentType: Nullable(Type.String(), { description: 'Media type, when known.' }),
    dateCreated: DateTime({ description: 'When it was first written.' }),
    storageZoneId: Int64({ description: 'The storage zone.' }),
    checksum: Nullable(Type.String(), { description: 'SHA-256 of the content (hex, upper case).' }),
    replicatedZones: Nullable(Type.String(), { description: 'Regions it is replicated to.' }),
  },
  { additionalProperties: false, description: 'A file of the storage zone.' },
);

const ResolutionsInfo = Type.Object(
  {
    videoId: Nullable(Type.String()),
    videoLibraryId: Int64(),
    availableResolutions: Nullable(Type.Array(Type.String()), { description: 'Renditions the video model lists as ready.' }),
    configuredResolutions: Nullable(Type.Array(Type.String()), { description: 'Renditions the library asks for.' }),
    playlistResolutions: Nullable(Type.Array(ResolutionReference), { description: 'Renditions the master playlist names.' }),
    storageResolutions: Nullable(Type.Array(ResolutionReference), { description: 'Rendition folders found in storage.' }),
    mp4Resolutions: Nullable(Type.Array(ResolutionReference), { description: 'MP4 fallbacks found in storage.' }),
    storageObjects: Nullable(Type.Array(StorageObject), { description: "The files directly in the video's folder." }),
    oldResolutions: Nullable(Type.Array(StorageObject), { description: 'Renditions of an older layout (none here).' }),
    hasBothOldAndNewResolutionFormat: Type.Boolean(),
    hasOriginal: Type.Boolean({ description: 'Whether the original file is stored.' }),
  },
  { additionalProperties: false },
);

export const ResolutionsAnswer = Type.Object(
  { ...StatusAnswer.properties, data: Type.Union([ResolutionsInfo, Type.Null()]) },
  { additionalProperties: false, description: "The video's renditions, as configured, listed and stored." },
);

const RenditionSize = Type.Object(
  { codec: Nullable(Type.String()), resolution: Nullable(Type.String()), size: Int64({ description: 'Bytes.' }) },
  { additionalProperties: false },
);

const StorageSize = Type.Object(
  {
    encoded: Nullable(Type.Record(Type.String(), RenditionSize), { description: 'Bytes of each HLS rendition, by `codec_resolution`.' }),
    thumbnails: Int64({ description: 'Bytes of the thumbnails.' }),
    previews: Int64({ description: 'Bytes of the animated previews.' }),
    originals: Int64({ description: 'Bytes of the original file.' }),
    mp4Fallback: Int64({ description: 'Bytes of the MP4 fallbacks.' }),
    miscellaneous: Int64({ description: 'Bytes of everything else (playlists, captions).' }),
    calculatedAt: DateTime({ description: 'When the sizes were added up.' }),
  },
  { additionalProperties: false },
);

export const StorageSizeAnswer = Type.Object(
  { ...StatusAnswer.properties, data: Type.Union([StorageSize, Type.Null()]) },
  { additionalProperties: false, description: "Bytes of the video's files, by kind." },
);

export const OEmbed = Type.Object(
  {
    version: Nullable(Type.String()),
    title: Nullable(Type.String()),
    type: Nullable(Type.String()),
    thumbnail_url: Nullable(Type.String()),
    thumbnail_width: Nullable(Int32()),
    thumbnail_height: Nullable(Int32()),
    width: Int32(),
    height: Int32(),
    html: Nullable(Type.String({ description: 'An iframe of the embed page.' })),
    provider_name: Nullable(Type.String()),
    provider_url: Nullable(Type.String()),
  },
  { additionalProperties: false, description: 'The oEmbed description of a video (oembed.com).' },
);
