/**
 * An S3-compatible object store destination: each whole part (written first to a staging file, as
 * the files destination writes it) is uploaded with lib-storage's multipart upload, which makes the
 * object visible only when it completes, so a reader never sees half an object. Every connection goes
 * to an address the egress policy checked.
 */
import { createReadStream } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { S3Client } from '@aws-sdk/client-s3';
import { egressLookup, type EgressPolicy } from '@svc/engine';
import type { S3DestinationConfig } from './config.js';

/**
 * An S3 client for the destination, every connection through the egress policy; the caller destroys
 * it. The AWS SDK is loaded by the first export to S3 a process runs, not by every process.
 */
export async function s3ClientOf(config: S3DestinationConfig, egress: EgressPolicy): Promise<S3Client> {
  const { S3Client } = await import('@aws-sdk/client-s3');
  const endpoint = config.endpoint ? new URL(config.endpoint) : undefined;
  const secure = endpoint ? endpoint.protocol === 'https:' : true;
  const port = endpoint?.port ? Number(endpoint.port) : secure ? 443 : 80;
  const lookup = egressLookup(egress, port);
  return new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.force_path_style,
    credentials: { accessKeyId: config.access_key_id, secretAccessKey: config.secret_access_key ?? '' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: {
      httpAgent: new http.Agent({ lookup }),
      httpsAgent: new https.Agent({ lookup }),
    },
  });
}

export function s3Uploader(config: S3DestinationConfig, egress: EgressPolicy) {
  let client: Promise<S3Client> | undefined;
  return {
    /** Uploads a whole staged part as `prefix + name`; the object appears when the upload completes. */
    async upload(temp: string, name: string, bytes: number, signal: AbortSignal) {
      const key = `${config.prefix}${name}`;
      const { Upload } = await import('@aws-sdk/lib-storage');
      const upload = new Upload({
        client: await (client ??= s3ClientOf(config, egress)),
        params: { Bucket: config.bucket, Key: key, Body: createReadStream(temp) },
        partSize: 8 * 1024 * 1024,
        queueSize: 2,
        leavePartsOnError: false,
      });
      const abort = () => void upload.abort();
      signal.addEventListener('abort', abort, { once: true });
      try {
        await upload.done();
      } finally {
        signal.removeEventListener('abort', abort);
      }
      return { name: `s3://${config.bucket}/${key}`, bytes };
    },
    close: () => void client?.then((c) => c.destroy()),
  };
}
