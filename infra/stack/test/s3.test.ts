/** The local S3 server: SDK uploads, public GETs for <img src>, browser CORS and presigned PUTs. */
import { randomBytes } from 'node:crypto';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { testEndpoints } from '../src/endpoints';

const { s3 } = testEndpoints();
const client = new S3Client({
  endpoint: s3.endpoint,
  region: s3.region,
  forcePathStyle: true,
  credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
  // Otherwise presigned URLs carry a CRC32 of an empty body and real uploads fail (STACK-NOTES).
  requestChecksumCalculation: 'WHEN_REQUIRED',
});
const prefix = `t${randomBytes(4).toString('hex')}`;
const publicUrl = (key: string) => `${s3.endpoint}/${s3.bucket}/${key}`;
const written: string[] = [];

afterAll(async () => {
  await Promise.all(written.map((Key) => client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key }))));
  client.destroy();
});

test('an object put with the SDK is readable over plain HTTP', async () => {
  const key = `${prefix}/chair.svg`;
  written.push(key);
  const body = '<svg xmlns="http://www.w3.org/2000/svg"/>';
  await client.send(
    new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: body, ContentType: 'image/svg+xml' }),
  );

  const res = await fetch(publicUrl(key), { headers: { origin: 'http://127.0.0.1:8080' } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('image/svg+xml');
  expect(res.headers.get('access-control-allow-origin')).toBe('*'); // fetch() from a page works too
  expect(await res.text()).toBe(body);
});

test('a CORS preflight for a PUT from another origin is allowed', async () => {
  const res = await fetch(publicUrl(`${prefix}/upload.png`), {
    method: 'OPTIONS',
    headers: {
      origin: 'http://localhost:3001',
      'access-control-request-method': 'PUT',
      'access-control-request-headers': 'content-type',
    },
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
  expect(res.headers.get('access-control-allow-methods')).toContain('PUT');
  expect(res.headers.get('access-control-allow-headers')).toContain('content-type');
});

test('a presigned PUT uploads with plain fetch, as a browser would', async () => {
  const key = `${prefix}/presigned.png`;
  written.push(key);
  const url = await getSignedUrl(
    client,
    new PutObjectCommand({ Bucket: s3.bucket, Key: key, ContentType: 'image/png' }),
    { expiresIn: 300, signableHeaders: new Set(['content-type']) },
  );
  const bytes = randomBytes(512);
  const put = await fetch(url, {
    method: 'PUT',
    body: bytes,
    headers: { 'content-type': 'image/png', origin: 'http://localhost:3001' },
  });
  expect(put.status).toBe(200);
  expect(put.headers.get('access-control-allow-origin')).toBe('*');

  const stored = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: key }));
  const content = await stored.Body?.transformToByteArray();
  expect(Buffer.from(content ?? []).equals(bytes)).toBe(true);
  expect(stored.ContentType).toBe('image/png');
});
