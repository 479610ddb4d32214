/**
 * An S3-compatible bucket prefix as a source (@aws-sdk/client-s3): objects listed by glob, each
 * downloaded (streamed) into the ingestion's own folder and loaded like an upload; after the load,
 * deleted or moved under the archive prefix. Every connection goes through the egress policy (the
 * agents' lookup resolves and checks each address). Checksums are computed and validated only
 * when required, which S3-compatible stores need.
 */
import { createWriteStream } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import { egressLookup, type EgressPolicy } from '@svc/engine';
import picomatch from 'picomatch';

export interface S3SourceSpec {
  kind: 's3';
  endpoint?: string;
  region?: string;
  bucket: string;
  prefix?: string;
  glob?: string;
  force_path_style?: boolean;
  access_key_id?: string;
  /** Encrypted at rest; never shown. */
  secret_access_key_encrypted?: string;
}

export interface S3Object {
  key: string;
  /** The key relative to the prefix: what the glob matches and the history shows. */
  name: string;
  size: number;
  modifiedAt: Date;
}

/** The prefix as a folder (`incoming` is `incoming/`); an object's key is this plus its name. */
export const folderOf = (spec: Pick<S3SourceSpec, 'prefix'>) =>
  spec.prefix && !spec.prefix.endsWith('/') ? `${spec.prefix}/` : (spec.prefix ?? '');

export async function openS3Source(spec: S3SourceSpec, secretAccessKey: string | undefined, egress: EgressPolicy) {
  // The AWS SDK is loaded by the first bucket a process reads, not by every process.
  const { CopyObjectCommand, DeleteObjectCommand, GetObjectCommand, ListObjectsV2Command, S3Client } =
    await import('@aws-sdk/client-s3');
  const endpoint = spec.endpoint ? new URL(spec.endpoint) : undefined;
  const port = endpoint ? Number(endpoint.port || (endpoint.protocol === 'http:' ? 80 : 443)) : 443;
  const lookup = egressLookup(egress, port);
  const client = new S3Client({
    region: spec.region ?? 'us-east-1',
    endpoint: spec.endpoint,
    forcePathStyle: spec.force_path_style ?? !!spec.endpoint,
    credentials:
      spec.access_key_id && secretAccessKey ? { accessKeyId: spec.access_key_id, secretAccessKey } : undefined,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: {
      httpAgent: new http.Agent({ lookup, keepAlive: true }),
      httpsAgent: new https.Agent({ lookup, keepAlive: true }),
    },
  });
  const prefix = folderOf(spec);
  return {
    /** Objects under the prefix matching the glob, leaving out `skipPrefix` (the archive). */
    async list(skipPrefix: string | undefined): Promise<S3Object[]> {
      const match = picomatch(spec.glob ?? '*', { dot: false });
      const found: S3Object[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket: spec.bucket, Prefix: prefix, ContinuationToken: token }),
        );
        for (const object of page.Contents ?? []) {
          const key = object.Key!;
          if (skipPrefix && key.startsWith(skipPrefix)) continue;
          const name = key.slice(prefix.length);
          if (!name || !match(name)) continue;
          found.push({ key, name, size: object.Size ?? 0, modifiedAt: object.LastModified ?? new Date(0) });
        }
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return found.sort((a, b) => a.key.localeCompare(b.key));
    },
    async download(key: string, target: string): Promise<void> {
      const object = await client.send(new GetObjectCommand({ Bucket: spec.bucket, Key: key }));
      await pipeline(object.Body as Readable, createWriteStream(target));
    },
    remove: (key: string) => client.send(new DeleteObjectCommand({ Bucket: spec.bucket, Key: key })),
    /** Moves an object under the archive prefix (copy, then delete); answers its new key. */
    async archive(key: string, archivePrefix: string): Promise<string> {
      const target = `${archivePrefix.replace(/\/?$/, '/')}${path.posix.basename(key)}`;
      await client.send(
        new CopyObjectCommand({
          Bucket: spec.bucket,
          Key: target,
          CopySource: `${spec.bucket}/${key.split('/').map(encodeURIComponent).join('/')}`,
        }),
      );
      await client.send(new DeleteObjectCommand({ Bucket: spec.bucket, Key: key }));
      return target;
    },
    close: () => client.destroy(),
  };
}

export type S3Source = Awaited<ReturnType<typeof openS3Source>>;
