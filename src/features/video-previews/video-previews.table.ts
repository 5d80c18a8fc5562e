import type { Selectable } from 'kysely';

/** One cached preview image, or a remembered "no image" (content_type and body null). */
export interface VideoPreviewTable {
  /** `youtube` or `vimeo`. */
  provider: string;
  video_id: string;
  content_type: string | null;
  /** The image as base64. */
  body: string | null;
  /** Bytes of the image (0 for a negative entry), for the cache's byte bound. */
  size: number;
  fetched_at: string;
  expires_at: string;
}

export type VideoPreviewRow = Selectable<VideoPreviewTable>;
