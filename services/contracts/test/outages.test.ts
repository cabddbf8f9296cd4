import { UNAVAILABLE_MESSAGES } from '../src/outages';

describe('what a 503 says while a dependency is away', () => {
  it('names each dependency in words people read, and asks them to try again', () => {
    expect(UNAVAILABLE_MESSAGES).toEqual({
      database: 'The database is unavailable, try again shortly',
      jobs: 'The job queue is unavailable, try again shortly',
      events: 'The event stream is unavailable, try again shortly',
      backlog: 'Too many changes are still waiting to be sent, try again shortly',
    });
    expect(new Set(Object.values(UNAVAILABLE_MESSAGES)).size).toBe(4);
  });
});
