/// <reference path="./types/s3rver.d.ts" />
import { mkdirSync } from 'node:fs';
import S3rver from 's3rver';

/** s3rver accepts any secret but only this access key id (see STACK-NOTES). */
export const S3_ACCESS_KEY_ID = 'S3RVER';
export const S3_SECRET_ACCESS_KEY = 'S3RVER';
export const S3_REGION = 'us-east-1';
export const S3_DEFAULT_BUCKET = 'decor-images';

/**
 * Browsers POST uploads straight to the bucket (presigned POST forms) from the frontends' origins and show images with
 * plain `<img src>`; any origin may do both on this local server.
 */
const CORS = `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedMethod>HEAD</AllowedMethod>
    <AllowedMethod>PUT</AllowedMethod>
    <AllowedMethod>POST</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <ExposeHeader>ETag</ExposeHeader>
    <MaxAgeSeconds>3600</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

export interface S3ServerOptions {
  /** 0 picks a free port. */
  port: number;
  /** Objects are kept as files here. */
  directory: string;
  bucket: string;
}

export interface S3Server {
  port: number;
  endpoint: string;
  close(): Promise<void>;
}

/** Runs s3rver in this process on 127.0.0.1 with the bucket (and its CORS rules) in place. */
export async function startS3Server(o: S3ServerOptions): Promise<S3Server> {
  mkdirSync(o.directory, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port: o.port,
    directory: o.directory,
    silent: true,
    configureBuckets: [{ name: o.bucket, configs: [CORS] }],
  });
  const { port } = await server.run();
  return { port, endpoint: `http://127.0.0.1:${port}`, close: () => server.close() };
}
