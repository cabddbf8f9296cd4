/** Redis: the machine's server when it answers, else our own redis-server. */
import { Socket } from 'node:net';
import { testEndpoints } from '../src/endpoints';
import { freePort } from '../src/ports';
import { redisAnswers, useOrStartRedis } from '../src/redis';

/** Sends one inline command and returns the raw reply. */
function command(port: number, line: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    let reply = '';
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (/\r\n$/.test(reply) && !reply.startsWith('*')) socket.end();
      if (reply.startsWith('*') && reply.split('\r\n').length >= 6) socket.end();
    });
    socket.once('close', () => resolve(reply));
    socket.once('error', reject);
    socket.connect(port, '127.0.0.1', () => socket.write(`${line}\r\n`));
  });
}

test('the endpoint the tests got answers PING', async () => {
  const { hostname, port } = new URL(testEndpoints().redisUrl);
  expect(await redisAnswers(hostname, Number(port))).toBe(true);
});

test('with nothing at the usual address, redis-server is started on a free port without persistence', async () => {
  if (process.env.REDIS_URL) return; // an explicit REDIS_URL is used as is, never replaced
  const nobody = await freePort();
  const redis = await useOrStartRedis(() => undefined, true, `redis://127.0.0.1:${nobody}`);
  try {
    expect(redis.process).toBeDefined();
    const port = Number(new URL(redis.url).port);
    expect(port).not.toBe(nobody);
    expect(await redisAnswers('127.0.0.1', port)).toBe(true);
    expect(await command(port, 'CONFIG GET save')).toBe('*2\r\n$4\r\nsave\r\n$0\r\n\r\n');
  } finally {
    await redis.process?.stop();
  }
});
