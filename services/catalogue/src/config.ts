import { loadConfigOrExit, REQUIRED_IN_PRODUCTION, serviceConfigSchema } from '@decor/kit';
import { Type } from '@sinclair/typebox';

const httpUrl = (defaultUrl: string) =>
  Type.String({
    pattern: '^https?://',
    'x-message': 'must start with http:// or https://',
    default: defaultUrl,
    [REQUIRED_IN_PRODUCTION]: true,
  });

/** Defaults match the local S3 emulator of `npm start` (infra: s3rver on 4569, key id S3RVER). */
const LOCAL_S3 = 'http://127.0.0.1:4569';

export const catalogueConfigSchema = serviceConfigSchema({
  PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 4102 }),
  MONGO_DB: Type.String({ pattern: '^[A-Za-z0-9_-]{1,63}$', default: 'catalogue' }),
  /** Where this service talks to S3 (inside a compose network: the storage container). */
  S3_ENDPOINT: httpUrl(LOCAL_S3),
  /**
   * Where browsers load the bucket's files from, bucket included (path style
   * `http://host:port/<bucket>`, a virtual host `https://<bucket>.s3.amazonaws.com`, or a CDN):
   * an image URL is `<S3_PUBLIC_URL>/<key>`.
   */
  S3_PUBLIC_URL: httpUrl(`${LOCAL_S3}/decor-images`),
  S3_BUCKET: Type.String({
    pattern: '^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$',
    'x-message': 'must be an S3 bucket name',
    default: 'decor-images',
  }),
  S3_REGION: Type.String({ minLength: 1, default: 'us-east-1' }),
  S3_ACCESS_KEY_ID: Type.String({ minLength: 1, default: 'S3RVER', [REQUIRED_IN_PRODUCTION]: true }),
  S3_SECRET_ACCESS_KEY: Type.String({ minLength: 1, default: 'S3RVER', [REQUIRED_IN_PRODUCTION]: true }),
  /** Folder of product images inside the bucket (tests give each run its own). */
  S3_KEY_PREFIX: Type.String({
    pattern: '^[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*$',
    'x-message': 'must be folder names separated by /',
    default: 'products',
  }),
  /**
   * Where browsers PUT presigned uploads (the S3 endpoint as they reach it, without the bucket);
   * defaults to S3_ENDPOINT, which is right whenever browsers and this service reach S3 alike.
   */
  S3_UPLOAD_ENDPOINT: Type.Optional(
    Type.String({ pattern: '^https?://', 'x-message': 'must start with http:// or https://' }),
  ),
  /** How long a presigned upload URL is valid, in seconds. */
  UPLOAD_URL_EXPIRES_S: Type.Integer({ minimum: 1, maximum: 7 * 24 * 3600, default: 600 }),
  /**
   * Seconds after presigning when a file uploaded but never attached to its product is deleted
   * (a delayed job per upload). Keep it above UPLOAD_URL_EXPIRES_S plus the time to attach.
   */
  UPLOAD_CLEANUP_AFTER_S: Type.Integer({ minimum: 1, maximum: 7 * 24 * 3600, default: 1800 }),
  /**
   * The image link saved when a product's last image is deleted (spec §4). Default: a placeholder
   * picture this service keeps in the bucket (the image host the site already allows).
   */
  PLACEHOLDER_IMAGE_URL: Type.Optional(
    Type.String({ pattern: '^https?://', 'x-message': 'must start with http:// or https://' }),
  ),
  /** Image jobs (upload cleanup, file deletion) this instance runs at once; 0 runs none here. */
  IMAGE_JOB_CONCURRENCY: Type.Integer({ minimum: 0, maximum: 50, default: 2 }),
  /**
   * Longest time a cached product or category answer is served. Writes of this instance clear the
   * cache at once and other instances' writes arrive as catalogue events; this bounds staleness if
   * those events stop arriving. 0 turns the cache off.
   */
  CATALOGUE_CACHE_TTL_MS: Type.Integer({ minimum: 0, maximum: 3_600_000, default: 30_000 }),
  /** Seed the demo catalogue into an empty database (never with NODE_ENV=production). */
  DEMO_CATALOGUE: Type.Boolean({ default: true }),
  /** The trucking fee in dollars when none was ever set (spec §9: trucking minimum charge 350). */
  DEFAULT_TRUCKING_FEE: Type.Number({ minimum: 0, default: 350 }),
});

export type CatalogueConfig = ReturnType<typeof loadCatalogueConfig>;

export function loadCatalogueConfig(env: Record<string, string | undefined> = process.env) {
  return loadConfigOrExit(catalogueConfigSchema, env);
}
