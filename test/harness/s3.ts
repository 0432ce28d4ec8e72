// A local S3-compatible server for the S3 media store: @20minutes/s3rver (a maintained fork of
// s3rver that runs on Node 24), in this process on a free loopback port, one bucket, files in a
// temporary folder. s3rver answers AbortMultipartUpload with "method not allowed"; real S3
// removes the upload's parts, so this harness does that itself, and records every request so
// tests can check that an upload was aborted. (s3rver also rejects the current SDK's signature on
// bucket-level requests such as ListObjects, "/bucket/"; object requests, all the service makes,
// are fine, and the tests list objects from s3rver's folder.)
import S3rver from '@20minutes/s3rver';
import { S3Client } from '@aws-sdk/client-s3';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** The environment that points the service at this bucket. */
  env: Record<string, string>;
  client: S3Client;
  /** Every request seen, as "METHOD /path?query". */
  requests: string[];
  keys(): Promise<string[]>;
  /** Multipart uploads begun and neither completed nor aborted. */
  openUploads(): string[];
  close(): Promise<void>;
}

const BUCKET = 'media';
const OBJECT_SUFFIX = '._S3rver_object';
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export async function startS3(): Promise<TestS3> {
  const dir = mkdtempSync(join(tmpdir(), 'socialapi-s3-'));
  const s3rver = new S3rver({ directory: dir, silent: true, configureBuckets: [{ name: BUCKET }] });
  await s3rver.configureBuckets();
  const handle = s3rver.callback();
  const uploadsDir = join(dir, BUCKET, '._S3rver_uploads');
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    requests.push(`${request.method ?? ''} ${request.url ?? ''}`);
    const url = new URL(request.url ?? '/', 'http://s3');
    const uploadId = url.searchParams.get('uploadId');
    if (request.method === 'DELETE' && uploadId !== null) {
      rmSync(join(uploadsDir, uploadId.replace(/[^0-9a-f]/g, '')), { recursive: true, force: true });
      response.writeHead(204).end();
      return;
    }
    handle(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  const endpoint = `http://127.0.0.1:${address.port}`;
  const client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials: CREDENTIALS });
  return {
    endpoint,
    bucket: BUCKET,
    env: {
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      S3_PUBLIC_URL: `${endpoint}/${BUCKET}`,
    },
    client,
    requests,
    // Read from s3rver's folder: its bucket listing rejects the SDK's signature for "/bucket/".
    keys() {
      try {
        const names = readdirSync(join(dir, BUCKET), { recursive: true, encoding: 'utf8' });
        return Promise.resolve(names.filter((name) => name.endsWith(OBJECT_SUFFIX)).map((name) => name.slice(0, -OBJECT_SUFFIX.length)).sort());
      } catch {
        return Promise.resolve([]);
      }
    },
    openUploads() {
      try {
        return readdirSync(uploadsDir);
      } catch {
        return [];
      }
    },
    async close() {
      client.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
