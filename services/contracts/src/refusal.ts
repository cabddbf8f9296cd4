/**
 * A rule's "no", thrown by a service's domain: what kind of no, and the sentence the user reads.
 * No HTTP in a domain: the one mapping to a status is `REFUSAL_HTTP_STATUS`, applied at the edge by
 * the kit's error handler (as `refusalHttpStatus` does for the order lifecycle's codes).
 */
export type RefusalKind = 'invalid' | 'notFound' | 'conflict';

export class Refusal extends Error {
  readonly kind: RefusalKind;

  constructor(kind: RefusalKind, message: string) {
    super(message);
    this.name = 'Refusal';
    this.kind = kind;
  }
}

export const refuse = {
  /** The request itself is wrong (a bad value). */
  invalid: (message: string) => new Refusal('invalid', message),
  /** What it names does not exist (for this caller). */
  notFound: (message: string) => new Refusal('notFound', message),
  /** It exists but its state forbids this now. */
  conflict: (message: string) => new Refusal('conflict', message),
};

export const REFUSAL_HTTP_STATUS: Readonly<Record<RefusalKind, 400 | 404 | 409>> = {
  invalid: 400,
  notFound: 404,
  conflict: 409,
};
