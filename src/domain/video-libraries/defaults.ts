/**
 * A freshly created video library, with the settings the platform gives a new library. Options of
 * the create request (spec: reference create model) override the defaults where they are not null.
 * Pure: no I/O, no framework.
 */
import type { VideoLibraryAddRequestT, VideoLibraryT } from '../../schemas/video-library.js';

export const DEFAULT_ENABLED_RESOLUTIONS = '240p,360p,480p,720p,1080p';
export const DEFAULT_PLAYER_CONTROLS = 'play-large,play,progress,current-time,mute,volume,captions,settings,pip,airplay,fullscreen';
export const DEFAULT_PLAYBACK_SPEEDS = '0.5,0.75,1,1.25,1.5,1.75,2';
export const DEFAULT_OUTPUT_CODECS = 'x264';
export const DEFAULT_PLAYER_VERSION = 2;
/** "No certificate yet": the DRM schemes of a new library carry this expiration date. */
export const NO_CERTIFICATE_DATE = new Date(0).toISOString();

/** Create-request options the defaults take into account (everything but Name and regions). */
export type VideoLibrarySettings = Omit<VideoLibraryAddRequestT, 'Name' | 'ReplicationRegions'>;

export interface NewVideoLibraryInit {
  id: number;
  name: string;
  pullZoneId: number;
  storageZoneId: number;
  replicationRegions: string[];
  apiKey: string;
  readOnlyApiKey: string;
  now: Date;
  /** Kind of the pull zone created with the library: 0 = Premium (default), 1 = Volume. */
  pullZoneType?: 0 | 1;
  /** Options of the create request; null or absent keeps the default. */
  settings?: VideoLibrarySettings;
}

/** `" x264, vp9 ,x264"` → `"x264,vp9"`: trimmed, empty entries dropped, first occurrence kept. */
export function normalizeCsv(value: string): string {
  return [
    ...new Set(
      value
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ].join(',');
}

export function newVideoLibrary(init: NewVideoLibraryInit): VideoLibraryT {
  const s: VideoLibrarySettings = init.settings ?? {};
  const now = init.now.toISOString();
  const titleGeneration = s.EnableTranscribingTitleGeneration ?? false;
  const descriptionGeneration = s.EnableTranscribingDescriptionGeneration ?? false;
  const chaptersGeneration = s.EnableTranscribingChaptersGeneration ?? false;
  const momentsGeneration = s.EnableTranscribingMomentsGeneration ?? false;
  // Any generation feature needs a transcript, so it switches transcribing on.
  const transcribing = (s.EnableTranscribing ?? false) || titleGeneration || descriptionGeneration || chaptersGeneration || momentsGeneration;
  const allowEarlyPlay = s.AllowEarlyPlay ?? false;

  return {
    Id: init.id,
    Name: init.name,
    VideoCount: 0,
    TrafficUsage: 0,
    StorageUsage: 0,
    DateCreated: now,
    DateModified: now,
    ReplicationRegions: [...init.replicationRegions],
    ApiKey: init.apiKey,
    ReadOnlyApiKey: init.readOnlyApiKey,
    HasWatermark: false,
    WatermarkPositionLeft: 70,
    WatermarkPositionTop: 70,
    WatermarkWidth: 12,
    PullZoneId: init.pullZoneId,
    StorageZoneId: init.storageZoneId,
    WatermarkHeight: 12,
    EnabledResolutions: s.EnabledResolutions != null ? normalizeCsv(s.EnabledResolutions) : DEFAULT_ENABLED_RESOLUTIONS,
    AdPublisherId: null,
    VastTagUrl: null,
    WebhookUrl: null,
    CaptionsFontSize: 20,
    CaptionsFontColor: '#fff',
    CaptionsBackground: '#000',
    UILanguage: 'en',
    AllowEarlyPlay: allowEarlyPlay,
    PlayerTokenAuthenticationEnabled: false,
    AllowedReferrers: [],
    BlockedReferrers: [],
    BlockNoneReferrer: s.BlockNoneReferrer ?? false,
    EnableMP4Fallback: s.EnableMP4Fallback ?? true,
    KeepOriginalFiles: s.KeepOriginalFiles ?? true,
    AllowDirectPlay: s.AllowDirectPlay ?? true,
    EnableDRM: false,
    DrmVersion: 0,
    DrmSchemeA: { Enabled: false, CertificateId: 0, CertificateExpirationDate: NO_CERTIFICATE_DATE, Provider: '' },
    DrmSchemeB: {
      Enabled: false,
      CertificateId: 0,
      CertificateExpirationDate: NO_CERTIFICATE_DATE,
      Provider: '',
      SdOnlyForL3: false,
      MinClientSecurityLevel: null,
    },
    Bitrate240p: 600,
    Bitrate360p: 800,
    Bitrate480p: 1400,
    Bitrate720p: 2800,
    Bitrate1080p: 5000,
    Bitrate1440p: 8000,
    Bitrate2160p: 13000,
    ApiAccessKey: init.apiKey,
    ShowHeatmap: false,
    EnableContentTagging: false,
    PullZoneType: init.pullZoneType ?? 0,
    CustomHTML: null,
    Controls: DEFAULT_PLAYER_CONTROLS,
    PlaybackSpeeds: DEFAULT_PLAYBACK_SPEEDS,
    PlayerKeyColor: '#ff7755',
    FontFamily: null,
    WatermarkVersion: 0,
    EnableTranscribing: transcribing,
    EnableTranscribingTitleGeneration: titleGeneration,
    EnableTranscribingDescriptionGeneration: descriptionGeneration,
    EnableTranscribingChaptersGeneration: chaptersGeneration,
    EnableTranscribingMomentsGeneration: momentsGeneration,
    TranscribingCaptionLanguages: s.TranscribingCaptionLanguages != null ? [...s.TranscribingCaptionLanguages] : [],
    EnableCaptionsInPlaylist: false,
    RememberPlayerPosition: false,
    EnableMultiAudioTrackSupport: s.EnableMultiAudioTrackSupport ?? false,
    UseSeparateAudioStream: false,
    JitEncodingEnabled: s.JitEncodingEnabled ?? false,
    EncodingTier: s.EncodingTier ?? 0,
    OutputCodecs: s.OutputCodecs != null ? normalizeCsv(s.OutputCodecs) : DEFAULT_OUTPUT_CODECS,
    DrmBasePriceOverride: null,
    DrmCostPerLicenseOverride: null,
    TranscribingPriceOverride: null,
    PremiumEncodingPriceOverride: null,
    MonthlyChargesTranscribing: 0,
    MonthlyChargesPremiumEncoding: 0,
    MonthlyChargesEnterpriseDrm: 0,
    FeatureFlags: null,
    PlayerVersion: s.PlayerVersion ?? DEFAULT_PLAYER_VERSION,
    RemoveMetadataFromFallbackVideos: false,
    ScaleVideoUsingBothDimensions: true,
    // Early play serves the original file, so it needs the originals exposed.
    ExposeOriginals: allowEarlyPlay,
    ExposeVideoMetadata: false,
    EnableCompactControls: false,
  };
}
