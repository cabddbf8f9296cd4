import { currentUser, hasRole } from '@decor/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CachedAnswer } from '../cache';
import type { Viewer } from '../domain/product';

export function viewerOf(request: FastifyRequest): Viewer {
  const user = currentUser(request);
  if (!user) return 'anonymous';
  return hasRole(user, 'staff') ? 'staff' : 'signedIn';
}

/** A JSON answer made once and served from the cache: the body is already a JSON string. */
export function answer(result: unknown, headers: Record<string, string> = {}): CachedAnswer {
  return { body: JSON.stringify({ result }), headers };
}

export function sendAnswer(reply: FastifyReply, cached: CachedAnswer) {
  // A string body with a JSON content type goes out as is (no second serialisation).
  return reply.headers(cached.headers).type('application/json; charset=utf-8').send(cached.body);
}
