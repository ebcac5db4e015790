/**
 * Video libraries (spec 2.3; operation 4.3, plus create/update taken from the platform's public
 * reference). A library is a storage zone and a pull zone bundled with encoding and player
 * settings. The core API travels in PascalCase and sends its enums as integers.
 *
 * Vendor words in field names are replaced by neutral ones: `AdPublisherId` (advertising
 * publisher), `DrmSchemeA` and `DrmSchemeB` (the two device-family DRM schemes).
 */
import { Type, type Static } from 'typebox';
import { DateTime, Decimal, Int32, Int64, IntEnum, Nullable } from './common.js';
import { STORAGE_REPLICATION_REGIONS } from './storage-zone.js';

/** Index = wire value. Meanings are not part of the specification; these are the platform's names. */
export const DRM_VERSIONS = ['Basic', 'Enterprise', 'BasicV2'] as const;
export const ENCODING_TIERS = ['Free', 'Premium'] as const;
export const LIBRARY_PULL_ZONE_TYPES = ['Premium', 'Volume'] as const;
/** Minimum client security level of scheme B: 1 is the most secure, 3 the least. */
export const DRM_MIN_CLIENT_SECURITY_LEVELS = ['None', 'L1', 'L2', 'L3'] as const;

/** Codecs an encoding may produce. The free tier allows only `x264` (checked by the domain). */
export const OUTPUT_CODECS = ['x264', 'vp9', 'hevc', 'av1'] as const;
export const FREE_TIER_CODECS = ['x264'] as const;
export const VIDEO_RESOLUTIONS = ['240p', '360p', '480p', '720p', '1080p', '1440p', '2160p'] as const;

/** A comma-separated list of one or more of `values` (blanks around the commas are tolerated). */
export function csvPattern(values: readonly string[]): string {
  const one = `(${values.map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`;
  return `^\\s*${one}\\s*(,\\s*${one}\\s*)*$`;
}

const DrmVersionEnum = (o: { description?: string } = {}) => IntEnum([0, 1, 2] as const, o);
const EncodingTierEnum = (o: { description?: string } = {}) => IntEnum([0, 1] as const, o);
const MinClientSecurityLevelEnum = (o: { description?: string } = {}) => IntEnum([0, 1, 2, 3] as const, o);

const ReplicationRegionList = (description: string) =>
  Nullable(
    Type.Array(Type.Unsafe<(typeof STORAGE_REPLICATION_REGIONS)[number]>({ type: 'string', enum: [...STORAGE_REPLICATION_REGIONS] }), {
      uniqueItems: true,
    }),
    { description },
  );

const OutputCodecsText = (description: string) => Nullable(Type.String({ pattern: csvPattern(OUTPUT_CODECS) }), { description });
const ResolutionsText = (description: string) => Nullable(Type.String({ pattern: csvPattern(VIDEO_RESOLUTIONS) }), { description });

// ---------------------------------------------------------------------------------------------
// Response
// ---------------------------------------------------------------------------------------------

const drmSchemeCommon = {
  Enabled: Type.Boolean({ description: 'True when the scheme is switched on for the library.' }),
  CertificateId: Int64({ description: 'Identifier of the certificate used by the scheme; 0 when none is set up.' }),
  CertificateExpirationDate: DateTime({ description: "When the scheme's certificate expires." }),
  Provider: Type.String({ description: 'Name of the licence provider serving the scheme; empty when none.' }),
};

export const DrmSchemeA = Type.Object(drmSchemeCommon, {
  additionalProperties: false,
  description: 'Enterprise DRM scheme for one device family.',
});

export const DrmSchemeB = Type.Object(
  {
    ...drmSchemeCommon,
    SdOnlyForL3: Type.Boolean({ description: 'Restrict clients of the lowest security level to audio and standard definition.' }),
    MinClientSecurityLevel: Nullable(MinClientSecurityLevelEnum(), {
      description: 'Lowest client security level allowed to play: 0 = None, 1 = L1 (most secure), 2 = L2, 3 = L3 (least secure, the default).',
    }),
  },
  { additionalProperties: false, description: 'Enterprise DRM scheme for another device family.' },
);

export const VideoLibrary = Type.Object(
  {
    Id: Int64({ description: 'Identifier of the library.' }),
    Name: Nullable(Type.String(), { description: 'Display name of the library.' }),
    VideoCount: Int64({ description: 'Number of videos in the library.' }),
    TrafficUsage: Int64({ description: 'Bytes delivered this month.' }),
    StorageUsage: Int64({ description: 'Bytes stored by the library.' }),
    DateCreated: DateTime({ description: 'When the library was created.' }),
    DateModified: DateTime({ description: 'When the library was last changed.' }),
    ReplicationRegions: Nullable(Type.Array(Type.String()), { description: 'Regions the underlying storage zone replicates to.' }),
    ApiKey: Nullable(Type.String(), { description: "Read-write key of the library's own API. A credential." }),
    ReadOnlyApiKey: Nullable(Type.String(), { description: "Read-only key of the library's own API. A credential." }),
    HasWatermark: Type.Boolean({ description: 'True when a watermark image is configured.' }),
    WatermarkPositionLeft: Int32({ description: 'Left offset of the watermark, in percent of the frame width.' }),
    WatermarkPositionTop: Int32({ description: 'Top offset of the watermark, in percent of the frame height.' }),
    WatermarkWidth: Int32({ description: 'Width of the watermark, in percent of the frame width.' }),
    PullZoneId: Int64({ description: 'Pull zone that delivers the library.' }),
    StorageZoneId: Int64({ description: "Storage zone that holds the library's files." }),
    WatermarkHeight: Int32({ description: 'Height of the watermark, in percent of the frame height.' }),
    EnabledResolutions: Nullable(Type.String(), { description: 'Comma-separated resolutions videos are encoded to, e.g. `240p,360p,720p`.' }),
    AdPublisherId: Nullable(Type.String(), { description: 'Publisher identifier for the advertising integration.' }),
    VastTagUrl: Nullable(Type.String(), { description: 'Address of the VAST ad tag the player loads.' }),
    WebhookUrl: Nullable(Type.String(), { description: 'Address notified of video events.' }),
    CaptionsFontSize: Int32({ description: 'Font size of captions in the player.' }),
    CaptionsFontColor: Nullable(Type.String(), { description: 'Text color of captions (CSS color).' }),
    CaptionsBackground: Nullable(Type.String(), { description: 'Background color of captions (CSS color).' }),
    UILanguage: Nullable(Type.String(), { description: 'Language of the player interface (short code, e.g. `en`).' }),
    AllowEarlyPlay: Nullable(Type.Boolean(), { description: 'Let videos play from the original file while encoding is still running.' }),
    PlayerTokenAuthenticationEnabled: Type.Boolean({ description: 'Require a signed token to open the embedded player.' }),
    AllowedReferrers: Nullable(Type.Array(Type.String()), { description: 'Referrer domains allowed to load videos; empty allows all.' }),
    BlockedReferrers: Nullable(Type.Array(Type.String()), { description: 'Referrer domains refused.' }),
    BlockNoneReferrer: Type.Boolean({ description: 'Refuse requests that carry no referrer.' }),
    EnableMP4Fallback: Type.Boolean({ description: 'Also produce MP4 files for players without HLS support.' }),
    KeepOriginalFiles: Type.Boolean({ description: 'Keep the uploaded file after encoding.' }),
    AllowDirectPlay: Type.Boolean({ description: 'Allow playing videos through direct play addresses.' }),
    EnableDRM: Type.Boolean({ description: 'Protect videos with DRM.' }),
    DrmVersion: DrmVersionEnum({ description: 'DRM generation: 0 = Basic, 1 = Enterprise, 2 = BasicV2.' }),
    DrmSchemeA: DrmSchemeA,
    DrmSchemeB: DrmSchemeB,
    Bitrate240p: Int32({ description: 'Encoding bitrate of 240p renditions (kbit/s).' }),
    Bitrate360p: Int32({ description: 'Encoding bitrate of 360p renditions (kbit/s).' }),
    Bitrate480p: Int32({ description: 'Encoding bitrate of 480p renditions (kbit/s).' }),
    Bitrate720p: Int32({ description: 'Encoding bitrate of 720p renditions (kbit/s).' }),
    Bitrate1080p: Int32({ description: 'Encoding bitrate of 1080p renditions (kbit/s).' }),
    Bitrate1440p: Int32({ description: 'Encoding bitrate of 1440p renditions (kbit/s).' }),
    Bitrate2160p: Int32({ description: 'Encoding bitrate of 2160p renditions (kbit/s).' }),
    ApiAccessKey: Nullable(Type.String(), { description: 'Deprecated: the same value as `ApiKey`. A credential.' }),
    ShowHeatmap: Type.Boolean({ description: 'Show the viewing heatmap on the player timeline.' }),
    EnableContentTagging: Type.Boolean({ description: 'Tag video content automatically.' }),
    PullZoneType: IntEnum([0, 1] as const, { description: 'Kind of the attached pull zone: 0 = Premium, 1 = Volume.' }),
    CustomHTML: Nullable(Type.String(), { description: 'HTML inserted into the head of the player page.' }),
    Controls: Nullable(Type.String(), { description: 'Comma-separated player controls shown.' }),
    PlaybackSpeeds: Nullable(Type.String(), { description: 'Comma-separated playback speeds offered.' }),
    PlayerKeyColor: Nullable(Type.String(), { description: 'Accent color of the player (CSS color).' }),
    FontFamily: Nullable(Type.String(), { description: 'Font family of captions.' }),
    WatermarkVersion: Int64({ description: 'Revision of the watermark image; increases on each change.' }),
    EnableTranscribing: Type.Boolean({ description: 'Generate captions from the audio automatically.' }),
    EnableTranscribingTitleGeneration: Type.Boolean({ description: 'Generate video titles from the transcript.' }),
    EnableTranscribingDescriptionGeneration: Type.Boolean({ description: 'Generate video descriptions from the transcript.' }),
    EnableTranscribingChaptersGeneration: Type.Boolean({ description: 'Generate chapters from the transcript.' }),
    EnableTranscribingMomentsGeneration: Type.Boolean({ description: 'Generate key moments from the transcript.' }),
    TranscribingCaptionLanguages: Nullable(Type.Array(Type.String()), { description: 'Languages captions are transcribed into.' }),
    EnableCaptionsInPlaylist: Nullable(Type.Boolean(), { description: 'Announce captions in the HLS master playlist (EXT-X-MEDIA).' }),
    RememberPlayerPosition: Type.Boolean({ description: 'Resume playback where the viewer left off.' }),
    EnableMultiAudioTrackSupport: Type.Boolean({ description: 'Keep several audio tracks in the output.' }),
    UseSeparateAudioStream: Type.Boolean({ description: 'Deliver audio as a stream separate from the video segments.' }),
    JitEncodingEnabled: Type.Boolean({ description: 'Encode renditions on first request (premium encoding tier only).' }),
    EncodingTier: EncodingTierEnum({ description: 'Encoding tier: 0 = Free, 1 = Premium (paid).' }),
    OutputCodecs: Nullable(Type.String(), {
      description: 'Comma-separated codecs videos are encoded with. The free tier supports only `x264`; the premium tier adds `vp9`, `hevc` and `av1`.',
    }),
    DrmBasePriceOverride: Nullable(Decimal(), { description: 'Monthly enterprise DRM base price of this library, when it differs from the list price.' }),
    DrmCostPerLicenseOverride: Nullable(Decimal(), { description: 'Enterprise DRM price per licence of this library, when it differs from the list price.' }),
    TranscribingPriceOverride: Nullable(Decimal(), { description: 'Transcribing price of this library, when it differs from the list price.' }),
    PremiumEncodingPriceOverride: Nullable(Decimal(), { description: 'Premium encoding price of this library, when it differs from the list price.' }),
    MonthlyChargesTranscribing: Decimal({ description: 'Transcribing charges this month.' }),
    MonthlyChargesPremiumEncoding: Decimal({ description: 'Premium encoding charges this month.' }),
    MonthlyChargesEnterpriseDrm: Decimal({ description: 'Enterprise DRM charges this month.' }),
    FeatureFlags: Nullable(Type.String(), { description: 'Feature flags enabled on the library.' }),
    PlayerVersion: Int32({ description: 'Version of the embedded player.' }),
    RemoveMetadataFromFallbackVideos: Type.Boolean({ description: 'Strip metadata from the MP4 fallback files (default false).' }),
    ScaleVideoUsingBothDimensions: Type.Boolean({
      description: 'Scale using both width and height, so videos are never upscaled nor distorted (default true).',
    }),
    ExposeOriginals: Type.Boolean({ description: 'Make the original files reachable through the pull zone (they carry no DRM).' }),
    ExposeVideoMetadata: Type.Boolean({ description: 'Publish video metadata as schema meta tags and LD+JSON.' }),
    EnableCompactControls: Type.Boolean({ description: 'Use the compact control bar in the player.' }),
  },
  { description: 'A video library.' },
);

/** A language the player interface or the transcriber supports. */
export const VideoLibraryLanguage = Type.Object(
  {
    ShortCode: Nullable(Type.String(), { description: 'Language code, e.g. `en`.' }),
    Name: Nullable(Type.String(), { description: 'Language name in English.' }),
    SupportPlayerTranslation: Type.Boolean({ description: 'The player interface is available in this language.' }),
    SupportTranscribing: Type.Boolean({ description: 'Captions can be transcribed into this language.' }),
    TranscribingAccuracy: Int32({ description: 'Expected transcription accuracy, in percent.' }),
  },
  { description: 'A language known to the video platform.' },
);

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

const optBool = (description: string) => Type.Optional(Nullable(Type.Boolean(), { description }));
const optInt32 = (description: string) => Type.Optional(Nullable(Int32(), { description }));
const optText = (description: string) => Type.Optional(Nullable(Type.String(), { description }));

export const VideoLibraryAddRequest = Type.Object(
  {
    Name: Type.String({ minLength: 1, description: 'Display name of the new library.' }),
    ReplicationRegions: Type.Optional(ReplicationRegionList("Regions the library's storage zone replicates to.")),
    PlayerVersion: optInt32('Player version to use; the current one when omitted.'),
    EncodingTier: Type.Optional(Nullable(EncodingTierEnum(), { description: 'Encoding tier: 0 = Free, 1 = Premium (paid).' })),
    JitEncodingEnabled: optBool('Encode renditions on first request (premium tier only).'),
    OutputCodecs: Type.Optional(OutputCodecsText('Comma-separated codecs from `x264`, `vp9`, `hevc`, `av1`; the free tier allows only `x264`.')),
    EnabledResolutions: Type.Optional(ResolutionsText('Comma-separated resolutions to encode, at least one of 240p, 360p, 480p, 720p, 1080p, 1440p, 2160p.')),
    BlockNoneReferrer: optBool('Refuse requests that carry no referrer.'),
    EnableMP4Fallback: optBool('Also produce MP4 files.'),
    KeepOriginalFiles: optBool('Keep the uploaded file after encoding.'),
    AllowDirectPlay: optBool('Allow direct play addresses.'),
    EnableMultiAudioTrackSupport: optBool('Keep several audio tracks in the output.'),
    EnableTranscribing: optBool('Generate captions from the audio automatically.'),
    TranscribingCaptionLanguages: Type.Optional(Nullable(Type.Array(Type.String()), { description: 'Languages captions are transcribed into.' })),
    EnableTranscribingTitleGeneration: optBool('Generate titles from the transcript (turns transcribing on).'),
    EnableTranscribingDescriptionGeneration: optBool('Generate descriptions from the transcript (turns transcribing on).'),
    EnableTranscribingChaptersGeneration: optBool('Generate chapters from the transcript (turns transcribing on).'),
    EnableTranscribingMomentsGeneration: optBool('Generate key moments from the transcript (turns transcribing on).'),
    AllowEarlyPlay: optBool('Let videos play while encoding runs (also exposes the originals).'),
  },
  { additionalProperties: false, description: 'A new video library.' },
);

export const DrmSchemeAUpdate = Type.Object({ Enabled: optBool('Switch the scheme on or off (enterprise DRM only).') }, { additionalProperties: false });

export const DrmSchemeBUpdate = Type.Object(
  {
    Enabled: optBool('Switch the scheme on or off (enterprise DRM only).'),
    SdOnlyForL3: optBool('Restrict clients of the lowest security level to audio and standard definition.'),
    MinClientSecurityLevel: Type.Optional(
      Nullable(MinClientSecurityLevelEnum(), {
        description: 'Lowest client security level allowed: 0 = None, 1 = L1 (most secure), 2 = L2, 3 = L3 (least secure, the default).',
      }),
    ),
  },
  { additionalProperties: false },
);

export const VideoLibraryUpdateRequest = Type.Object(
  {
    Name: Type.Optional(Nullable(Type.String({ minLength: 1 }), { description: 'New display name.' })),
    CustomHTML: optText('HTML inserted into the head of the player page.'),
    PlayerKeyColor: optText('Accent color of the player.'),
    EnableTokenAuthentication: optBool('Require signed tokens for delivery.'),
    EnableTokenIPVerification: optBool("Bind delivery tokens to the viewer's IP address."),
    ResetToken: optBool('True issues a new token signing key for delivery and embeds.'),
    WatermarkPositionLeft: optInt32('Left offset of the watermark, in percent.'),
    WatermarkPositionTop: optInt32('Top offset of the watermark, in percent.'),
    WatermarkWidth: optInt32('Width of the watermark, in percent.'),
    WatermarkHeight: optInt32('Height of the watermark, in percent.'),
    EnabledResolutions: Type.Optional(ResolutionsText('Comma-separated resolutions to encode, at least one of 240p, 360p, 480p, 720p, 1080p, 1440p, 2160p.')),
    AdPublisherId: optText('Publisher identifier for the advertising integration.'),
    VastTagUrl: optText('Address of the VAST ad tag.'),
    WebhookUrl: optText('Address notified of video events.'),
    CaptionsFontSize: optInt32('Font size of captions.'),
    CaptionsFontColor: optText('Text color of captions.'),
    CaptionsBackground: optText('Background color of captions.'),
    UILanguage: optText('Language of the player interface.'),
    AllowEarlyPlay: optBool('Let videos play while encoding runs (also exposes the originals).'),
    PlayerTokenAuthenticationEnabled: optBool('Require a signed token to open the embedded player.'),
    BlockNoneReferrer: optBool('Refuse requests that carry no referrer.'),
    EnableMP4Fallback: optBool('Also produce MP4 files.'),
    KeepOriginalFiles: optBool('Keep the uploaded file after encoding.'),
    AllowDirectPlay: optBool('Allow direct play addresses.'),
    EnableDRM: optBool('Protect videos with DRM.'),
    DrmVersion: Type.Optional(Nullable(DrmVersionEnum(), { description: 'DRM generation: 0 = Basic, 1 = Enterprise, 2 = BasicV2.' })),
    Controls: optText('Comma-separated player controls, e.g. `play-large,play,progress,current-time,mute,volume,captions,settings,fullscreen`.'),
    PlaybackSpeeds: optText('Comma-separated playback speeds, e.g. `0.5,1,1.5,2`.'),
    Bitrate240p: optInt32('Encoding bitrate of 240p renditions.'),
    Bitrate360p: optInt32('Encoding bitrate of 360p renditions.'),
    Bitrate480p: optInt32('Encoding bitrate of 480p renditions.'),
    Bitrate720p: optInt32('Encoding bitrate of 720p renditions.'),
    Bitrate1080p: optInt32('Encoding bitrate of 1080p renditions.'),
    Bitrate1440p: optInt32('Encoding bitrate of 1440p renditions.'),
    Bitrate2160p: optInt32('Encoding bitrate of 2160p renditions.'),
    ShowHeatmap: optBool('Show the viewing heatmap.'),
    EnableContentTagging: optBool('Tag video content automatically.'),
    FontFamily: optText('Font family of captions.'),
    EnableTranscribing: optBool('Generate captions from the audio automatically.'),
    EnableTranscribingTitleGeneration: optBool('Generate titles from the transcript.'),
    EnableTranscribingDescriptionGeneration: optBool('Generate descriptions from the transcript.'),
    EnableTranscribingChaptersGeneration: optBool('Generate chapters from the transcript.'),
    EnableTranscribingMomentsGeneration: optBool('Generate key moments from the transcript.'),
    TranscribingCaptionLanguages: Type.Optional(Nullable(Type.Array(Type.String()), { description: 'Languages captions are transcribed into.' })),
    EnableCaptionsInPlaylist: optBool('Announce captions in the HLS master playlist.'),
    RememberPlayerPosition: optBool('Resume playback where the viewer left off.'),
    EnableMultiAudioTrackSupport: optBool('Keep several audio tracks in the output.'),
    UseSeparateAudioStream: optBool('Deliver audio separately from the video segments.'),
    JitEncodingEnabled: optBool('Encode renditions on first request (premium tier only).'),
    EncodingTier: Type.Optional(Nullable(EncodingTierEnum(), { description: 'Encoding tier: 0 = Free, 1 = Premium (paid).' })),
    OutputCodecs: Type.Optional(OutputCodecsText('Comma-separated codecs from `x264`, `vp9`, `hevc`, `av1`; the free tier allows only `x264`.')),
    DrmSchemeA: Type.Optional(Nullable(DrmSchemeAUpdate, { description: 'Settings of DRM scheme A (enterprise DRM only).' })),
    DrmSchemeB: Type.Optional(Nullable(DrmSchemeBUpdate, { description: 'Settings of DRM scheme B (enterprise DRM only).' })),
    PlayerVersion: optInt32('Player version to use.'),
    RemoveMetadataFromFallbackVideos: optBool('Strip metadata from the MP4 fallback files.'),
    ScaleVideoUsingBothDimensions: optBool('Scale using both width and height.'),
    ExposeOriginals: optBool('Make the original files reachable through the pull zone.'),
    ExposeVideoMetadata: optBool('Publish video metadata as schema meta tags and LD+JSON.'),
    EnableCompactControls: optBool('Use the compact control bar in the player.'),
  },
  { additionalProperties: false, description: 'Changes to a video library; omitted or null fields stay as they are.' },
);

export type VideoLibraryT = Static<typeof VideoLibrary>;
export type VideoLibraryLanguageT = Static<typeof VideoLibraryLanguage>;
export type VideoLibraryAddRequestT = Static<typeof VideoLibraryAddRequest>;
export type VideoLibraryUpdateRequestT = Static<typeof VideoLibraryUpdateRequest>;
