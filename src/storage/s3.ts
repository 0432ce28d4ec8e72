// Media in an S3-compatible bucket, uploaded with the SDK's multipart Upload: the body is cut into
// 5 MiB parts, at most QUEUE_SIZE in flight, so memory stays near 20 MiB whatever the file's size.
// A failed upload is aborted (AbortMultipartUpload), which removes the parts already sent; a
// process that dies mid-upload leaves an incomplete upload that the bucket's lifecycle rule
// (AbortIncompleteMultipartUpload) removes — see README. The AWS SDK is loaded on first use, so
// processes that never touch a bucket do not pay for it at start.
import type { S3Client } from '@aws-sdk/client-s3';
import { Readable } from 'node:stream';
import type { S3Config } from '../config.ts';
import { IMMUTABLE_CACHE_CONTROL, type MediaStore } from './types.ts';

const PART_SIZE = 5 * 1024 * 1024;
const QUEUE_SIZE = 4;

export interface S3Store extends MediaStore {
  readonly kind: 's3';
  readonly bucket: string;
}

async function createS3Client(config: S3Config): Promise<S3Client> {
  const { S3Client } = await import('@aws-sdk/client-s3');
  return new S3Client({
    region: config.region,
    ...(config.endpoint ? { endpoint: config.endpoint, forcePathStyle: true } : {}),
    ...(config.accessKeyId && config.secretAccessKey
      ? { credentials: { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey } }
      : {}),
    // Checksums only where S3 requires them: many S3-compatible servers do not speak the
    // aws-chunked trailing-checksum encoding the SDK would otherwise use for every upload.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

/** Passes the body through, remembering the first error it raises (the cause worth reporting). */
function watch(body: Readable): { stream: Readable; error: () => unknown } {
  let first: unknown = null;
  async function* relay() {
    try {
      for await (const chunk of body) yield chunk as Buffer;
    } catch (error) {
      first ??= error;
      throw error;
    }
  }
  return { stream: Readable.from(relay(), { objectMode: false }), error: () => first };
}

export function createS3Store(config: S3Config): S3Store {
  const publicBase = config.publicUrl;
  let client: Promise<S3Client> | null = null;
  const clientOnce = () => (client ??= createS3Client(config));
  return {
    kind: 's3',
    bucket: config.bucket,
    async put(key, body, contentType) {
      const [{ Upload }, s3] = await Promise.all([import('@aws-sdk/lib-storage'), clientOnce()]);
      const watched = watch(body);
      const upload = new Upload({
        client: s3,
        params: { Bucket: config.bucket, Key: key, Body: watched.stream, ContentType: contentType, CacheControl: IMMUTABLE_CACHE_CONTROL },
        partSize: PART_SIZE,
        queueSize: QUEUE_SIZE,
        leavePartsOnError: false,
      });
      try {
        await upload.done();
      } catch (error) {
        // The Upload aborts the multipart upload itself; if that abort fails, its error replaces
        // the original one, so report the body's error when the body was the cause.
        watched.stream.destroy();
        throw watched.error() ?? error;
      }
    },
    async delete(key) {
      const [{ DeleteObjectCommand }, s3] = await Promise.all([import('@aws-sdk/client-s3'), clientOnce()]);
      await s3.send(new DeleteObjectCommand({ Bucket: config.bucket, Key: key }));
    },
    publicUrl: (key) => (publicBase === null ? null : `${publicBase}/${key}`),
  };
}
