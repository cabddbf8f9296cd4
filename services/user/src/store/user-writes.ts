import type { EventEnvelope } from '@decor/contracts';
import { runFlow, stop } from '@decor/kit';
import type { UserContext } from '../context';
import { isRefused, type Refused, refuse } from '../domain/refusals';
import { accessRevoked, changedFields, type UserChanges } from '../domain/user-changes';
import { parentCompany } from './companies';
import { endSessions } from './sessions';
import { userDeletedEvent, userStateEvent, welcomeRequest } from './user-events';
import { derivedKeys, newUserWithEvent, type User, userUpdatedEvent } from './user-model';
import { liveUser } from './user-reads';
import { changeDocument, isDuplicateKey } from './writes';

/**
 * Creates an account: its document with UserCreated (and, with `welcome`, the set-password link and
 * WelcomeEmailRequested) in one insert. A customer's company lives in another document, hence steps:
 * 1. "insert the account" (undo: delete it, UserDeleted);
 * 2. "find its company still there": a deletion of the company marks it before counting customers,
 *    so whoever comes second sees the other, and a customer inserted meanwhile is undone (400).
 */
export async function createAccount(
  ctx: UserContext,
  fields: Partial<User>,
  { welcome, companyId }: { welcome: boolean; companyId?: string },
  correlationId: string,
): Promise<User | Refused> {
  const user = newUserWithEvent(ctx.users, { ...fields, revision: 1 }, correlationId, { welcome });
  if (welcome) {
    const { pending, event } = welcomeRequest(user, correlationId);
    user.passwordReset = pending;
    user.outbox.push(event);
  }
  const id = user._id.toString();
  const refused = await runFlow<UserContext, Refused>(
    'create an account',
    ctx,
    [
      {
        name: 'insert the account with UserCreated',
        run: async () => {
          try {
            await user.save();
          } catch (err) {
            if (isDuplicateKey(err)) return stop(refuse('emailTaken'));
            throw err;
          }
          ctx.eventsWritten();
          return undefined;
        },
        undo: async () => {
          await deleteUser(ctx, id, correlationId);
        },
      },
      companyId !== undefined && {
        name: 'find its company still there',
        run: async () => {
          const company = await parentCompany(ctx, companyId);
          return isRefused(company) ? stop(company) : undefined;
        },
      },
    ],
    ctx.log,
  );
  return refused ?? (user.toObject() as User);
}

/**
 * Staff's change of a user's state or profile (`changes` as the rules accepted them) with UserUpdated,
 * and for Suspend / Enable its event. A new e-mail address, a suspension or an Enable also spends any
 * pending reset or welcome link, and a new address or a suspension ends every session of the user
 * (SessionsRevoked; after an Enable only new sign-ins work), in the same write (`accessRevoked`).
 * Resolves once the events are on Kafka: a suspension must reach every gateway quickly.
 */
export async function changeUser(
  ctx: UserContext,
  id: string,
  changes: UserChanges,
  correlationId: string,
): Promise<User | Refused> {
  let updated: User | null | Refused;
  try {
    updated = await changeDocument<User>(
      ctx.users,
      id,
      () => liveUser(ctx, id),
      (current) => {
        const changed = changedFields(current, changes);
        if (changed.length === 0) return null;
        const next: User = { ...current, ...changes } as User;
        const at = new Date().toISOString();
        const events: EventEnvelope[] = [userUpdatedEvent(next, correlationId)];
        const set: Record<string, unknown> = { ...changes, ...derivedKeys(next) };
        if (changed.includes('active')) events.push(userStateEvent(next, correlationId, at));
        const revoked = accessRevoked(changed, next);
        if (revoked.links) set.passwordReset = null;
        if (revoked.sessions) {
          const reason = next.active ? 'signed-out' : 'suspended';
          const ended = endSessions(current, reason, correlationId, new Date(at));
          set.sessionVersion = ended.sessionVersion;
          events.push(ended.event);
        }
        return { set, events };
      },
    );
  } catch (err) {
    if (isDuplicateKey(err)) return refuse('emailTaken');
    throw err;
  }
  if (!updated) return refuse('userNotFound');
  if (isRefused(updated)) return updated;
  await ctx.eventsPublished();
  return updated;
}

/**
 * Deletes an account for good: a tombstone (its e-mail freed, its personal fields cleared) with
 * UserDeleted, its sessions ended. `check` may refuse it as read.
 */
export async function deleteUser(
  ctx: UserContext,
  id: string,
  correlationId: string,
  check: (target: User) => Refused | undefined = () => undefined,
): Promise<Refused | undefined> {
  const done = await changeDocument<User>(
    ctx.users,
    id,
    () => liveUser(ctx, id),
    (current) => {
      const refused = check(current);
      if (refused) return refused;
      const at = new Date().toISOString();
      const ended = endSessions(current, 'deleted', correlationId, new Date(at));
      return {
        set: {
          sessionVersion: ended.sessionVersion,
          deletedAt: new Date(at),
          active: false,
          email: `deleted.${id}@deleted.invalid`,
          firstName: '',
          lastName: '',
          displayName: '',
          displayNameKey: '',
          phone: null,
          passwordHash: null,
          passwordReset: null,
        },
        events: [userDeletedEvent(current, correlationId, at), ended.event],
      };
    },
  );
  if (!done) return refuse('userNotFound');
  return isRefused(done) ? done : undefined;
}

/**
 * A new welcome e-mail (its link replacing any pending one) with WelcomeEmailRequested, in one write;
 * only while the account still has the address read and is active (a change meanwhile spent links).
 */
export async function sendWelcome(
  ctx: UserContext,
  user: Pick<User, '_id' | 'email' | 'firstName' | 'lastName' | 'displayName'>,
  correlationId: string,
): Promise<void> {
  const { pending, event } = welcomeRequest(user, correlationId);
  await ctx.users.updateOne(
    { _id: user._id, email: user.email, active: true, deletedAt: null },
    { $set: { passwordReset: pending }, $push: { outbox: event } },
  );
  ctx.eventsWritten();
}
