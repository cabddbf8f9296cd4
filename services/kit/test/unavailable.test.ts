import { UNAVAILABLE_MESSAGES } from '@decor/contracts';
import { DependencyUnavailableError, unavailableDependency, withinMs } from '../src/http/unavailable';

const named = (name: string, message = 'x') => Object.assign(new Error(message), { name });

describe('which dependency an error says is out of reach', () => {
  it.each([
    [named('MongoServerSelectionError'), 'database'],
    [named('MongoNetworkError'), 'database'],
    [named('MongooseError', 'Operation `notes.find()` buffering timed out after 10000ms'), 'database'],
    [named('MaxRetriesPerRequestError'), 'jobs'],
    [new Error('Command timed out'), 'jobs'],
    [new Error("Stream isn't writeable and enableOfflineQueue options is false"), 'jobs'],
    [named('KafkaJSNumberOfRetriesExceeded'), 'events'],
    [new DependencyUnavailableError('backlog'), 'backlog'],
  ])('%s → %s', (error, dependency) => {
    expect(unavailableDependency(error)).toBe(dependency);
  });

  it('a socket error passed on by a driver unwrapped counts for that driver only', () => {
    const socket = (stack: string) =>
      Object.assign(new Error('This socket has been ended'), { code: 'EPIPE', stack });
    expect(unavailableDependency(socket('at x (/app/node_modules/mongodb/lib/cmap/connection.js:1:1)'))).toBe(
      'database',
    );
    expect(unavailableDependency(socket('at y (/app/src/routes/upload.ts:3:4)'))).toBeUndefined();
  });

  it('everything else is not an outage', () => {
    expect(unavailableDependency(new Error('Cannot read properties of undefined'))).toBeUndefined();
    expect(unavailableDependency(named('ValidationError'))).toBeUndefined();
    expect(unavailableDependency(null)).toBeUndefined();
  });
});

describe('withinMs', () => {
  it('gives up after the bound with a 503 naming the dependency', async () => {
    const started = Date.now();
    const never = new Promise<never>(() => {});
    await expect(withinMs(never, 100, 'events')).rejects.toMatchObject({
      status: 503,
      message: UNAVAILABLE_MESSAGES.events,
    });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('passes a result and an ordinary error through', async () => {
    await expect(withinMs(Promise.resolve(7), 100, 'events')).resolves.toBe(7);
    await expect(withinMs(Promise.reject(new Error('bad topic name')), 100, 'events')).rejects.toThrow(
      'bad topic name',
    );
  });
});
