import { viewerClass } from '@decor/contracts';
import { badRequest, type CacheGetOptions, conflict, currentUser, notFound } from '@decor/kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CachedAnswer } from '../cache';
import type { CatalogueContext } from '../context';
import type { Viewer } from '../domain/product';
import { ConflictError, FormError } from '../domain/product-form';
import type { Product } from '../store/product-model';
import { liveProduct } from '../store/reads';

/** Contracts' viewer classes are the catalogue's: the gateway keys its cached answers by the same rule. */
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

/** The form's rule errors as answers: 400 for a field, 409 for a taken name. */
export function formAnswer<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof FormError) throw badRequest(err.message);
    if (err instanceof ConflictError) throw conflict(err.message);
    throw err;
  }
}

export async function findProduct(ctx: CatalogueContext, sku: string): Promise<Product> {
  const product = await liveProduct(ctx, sku);
  if (!product) throw notFound('Product not found');
  return product;
}
