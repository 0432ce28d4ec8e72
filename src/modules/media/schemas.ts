// The Media resource as the API shows it.
import { Type, type Static } from 'typebox';
import type { Config } from '../../config.ts';
import type { MediaRow } from '../../db/schema.ts';
import { Timestamp } from '../../http/schemas.ts';
import { storeFor } from '../../storage/index.ts';
import { MEDIA_TYPES } from './detect.ts';

export const MediaTypeSchema = (description?: string) => Type.String({ enum: [...MEDIA_TYPES], ...(description ? { description } : {}) });

export const Media = Type.Object(
  {
    id: Type.String(),
    postId: Type.Union([Type.String(), Type.Null()], { description: 'The post that last used this media through its publicUrl.' }),
    fileName: Type.String(),
    mimeType: MediaTypeSchema('Read from the file itself.'),
    size: Type.Integer({ description: 'Bytes.' }),
    createdAt: Timestamp(),
    publicUrl: Type.Union([Type.String({ format: 'uri' }), Type.Null()], {
      description:
        'Where platforms fetch the file: the bucket\'s public URL (S3_PUBLIC_URL), or this service\'s /media-files/ address ' +
        '(PUBLIC_BASE_URL, or the sandbox); null when no public base is configured. Use it as platformSpecificData.mediaUrl / mediaUrls.',
    }),
  },
  { $id: 'Media', title: 'Media' },
);
export type Media = Static<typeof Media>;

export function presentMedia(row: MediaRow, config: Config): Media {
  return {
    id: row.id,
    postId: row.post_id,
    fileName: row.file_name,
    mimeType: row.mime_type,
    size: row.size,
    createdAt: new Date(row.created_at).toISOString(),
    publicUrl: storeFor(config, row.storage)?.publicUrl(row.storage_key) ?? null,
  };
}
