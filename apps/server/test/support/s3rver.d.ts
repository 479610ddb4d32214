/** The part of s3rver (an S3-compatible server for tests) these tests use; the package ships no types. */
declare module 's3rver' {
  export default class S3rver {
    constructor(options: {
      address?: string;
      port?: number;
      silent?: boolean;
      directory: string;
      configureBuckets?: Array<{ name: string; configs?: unknown[] }>;
    });
    run(): Promise<{ port: number; address: string }>;
    close(): Promise<void>;
  }
}
