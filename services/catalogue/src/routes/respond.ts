import { type CacheGetOptions, currentUser, viewerClass } from '@decor/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CachedAnswer } from '../cache';
import type { Viewer } from '../domain/product';

/** The kit's viewer classes are the catalogue's: the gateway keys its cached answers by the same rule. */
export function viewerOf(request: FastifyRequest): Viewer {
  return viewerClass(currentUser(request));
}

/**
 * `Cache-Control: no-cache` asks for an answer read now, not a cached one (HTTP's meaning). The
 * gateway sends it on its own cache misses: it may have heard a catalogue event this instance has
 * not read yet, and an old answer from here would then stay in the gateway's cache for its TTL.
 * Anyone may send it; it costs one database read, as any new query string already does.
 */
export function cacheOptions(request: FastifyRequest): CacheGetOptions<CachedAnswer> {
  return { refresh: /(^|,)\s*no-cache\s*(,|$)/i.test(request.headers['cache-control'] ?? '') };
}

/** A JSON answer made once and served from the cache: the body is already a JSON string. */
export function answer(result: unknown, headers: Record<string, string> = {}): CachedAnswer {
  return { body: JSON.stringify({ result }), headers };
}

export function sendAnswer(reply: FastifyReply, cached: CachedAnswer) {
  // A string body with a JSON content type goes out as is (no second serialisation).
  return reply.headers(cached.headers).type('application/json; charset=utf-8').send(cached.body);
}
