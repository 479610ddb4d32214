/**
 * An S3-compatible server for tests (s3rver, on a loopback port, its objects in a temporary folder)
 * and a client of it; `close()` stops both and removes the folder.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';

/** s3rver's fixed credentials. */
export const S3RVER_KEY = 'S3RVER';

export interface TestS3 {
  endpoint: string;
  client: S3Client;
  put(bucket: string, key: string, body: string | Buffer): Promise<unknown>;
  close(): Promise<void>;
}

export async function startS3(buckets: string[]): Promise<TestS3> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'svc-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    credentials: { accessKeyId: S3RVER_KEY, secretAccessKey: S3RVER_KEY },
    // S3-compatible stores do not all compute the checksums the SDK would otherwise ask for.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  return {
    endpoint,
    client,
    put: (bucket, key, body) => client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body })),
    async close() {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
