/** Where each image of a video library is served, and what it is called in messages and the docs. */
import type { ImageSlot } from '../../../../domain/video-libraries/images.js';

export const IMAGE_ROUTES: readonly { slot: ImageSlot; path: string; what: string; operation: string }[] = [
  { slot: 'watermark', path: 'watermark', what: 'watermark', operation: 'Watermark' },
  { slot: 'live-thumbnail', path: 'live/thumbnail', what: 'live stream thumbnail', operation: 'LiveThumbnail' },
  { slot: 'live-watermark', path: 'live/watermark', what: 'live stream watermark', operation: 'LiveWatermark' },
];

export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/octet-stream'] as const;
