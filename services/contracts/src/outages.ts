/**
 * What a 503 says when a server the service depends on is out of reach. Shown to people as is by
 * the frontends (the error toast), so the texts live here once.
 */
export const UNAVAILABLE_MESSAGES = {
  /** MongoDB does not answer. */
  database: 'The database is unavailable, try again shortly',
  /** Redis (job queues, shared counters, locks) does not answer. */
  jobs: 'The job queue is unavailable, try again shortly',
  /** Kafka does not answer. */
  events: 'The event stream is unavailable, try again shortly',
  /** A document has too many changes still waiting to be announced (Kafka has been away a while). */
  backlog: 'Too many changes are still waiting to be sent, try again shortly',
} as const;

export type UnavailableDependency = keyof typeof UNAVAILABLE_MESSAGES;
