/**
 * The shell provides a shared module only if its own code imports it. These are used by the remotes
 * alone (tables, cards), so they are referenced here: each becomes a chunk the shell can hand out,
 * downloaded only when a remote screen asks for it.
 */
export const remoteOnlyShared = () => import('@decor/web-core/ui-data');
