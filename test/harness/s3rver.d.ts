// The few members of @20minutes/s3rver (a maintained fork of s3rver, CommonJS, no types) the tests use.
declare module '@20minutes/s3rver' {
  import type { IncomingMessage, ServerResponse } from 'node:http';
  interface S3rverOptions {
    directory: string;
    silent?: boolean;
    configureBuckets?: Array<{ name: string }>;
  }
  class S3rver {
    constructor(options: S3rverOptions);
    configureBuckets(): Promise<void>;
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
  }
  export default S3rver;
}
