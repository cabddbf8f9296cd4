import { TEST_JWT_SECRET } from '@decor/kit/testing';

export const JWT_SECRET = TEST_JWT_SECRET;

/**
 * What every test gateway needs besides its upstreams: this file's Redis keys (rate limits), a free
 * internal port, and this file's Kafka (a gateway that cannot read the user topic answers a session
 * token 503: it cannot tell an ended session from a live one).
 */
export function gatewayTestEnv(env: Record<string, string>): Record<string, string> {
  return {
    KAFKA_BROKERS: env.KAFKA_BROKERS as string,
    KAFKA_TOPIC_PREFIX: env.KAFKA_TOPIC_PREFIX as string,
    NODE_ENV: 'test',
    DECOR_ALLOW_DEV_SECRETS: '1',
    JWT_SECRET,
    REDIS_URL: env.REDIS_URL as string,
    REDIS_PREFIX: env.REDIS_PREFIX as string,
  };
}
