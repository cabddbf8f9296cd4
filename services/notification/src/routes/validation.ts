import { type AjvIssue, badRequest, validationMessage } from '@decor/kit';
import type { FastifyRequest } from 'fastify';

/**
 * For routes registered with `attachValidation: true`: a preHandler (after the session check, so an
 * anonymous caller gets 401 before any 400) that answers the first validation issue with 400. A
 * field named in `messages` gets that exact sentence — the spec's texts are whole sentences, which
 * the kit's `x-message` (always prefixed with the field name) cannot give.
 */
export function refuseInvalid(messages: Record<string, string>) {
  return async (request: FastifyRequest): Promise<void> => {
    const error = request.validationError as
      | (Error & { validation?: AjvIssue[]; validationContext?: string })
      | undefined;
    if (!error) return;
    const issues = error.validation ?? [];
    const context = error.validationContext ?? 'body';
    const first = issues[0];
    const field =
      first?.keyword === 'required' && first.instancePath === ''
        ? String(first.params.missingProperty)
        : (first?.instancePath.split('/')[1] ?? '');
    const own = context === 'body' && first?.keyword !== 'additionalProperties' ? messages[field] : undefined;
    throw badRequest(own ?? (issues.length > 0 ? validationMessage(issues, context) : error.message));
  };
}
