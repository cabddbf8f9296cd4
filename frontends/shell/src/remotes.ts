/**
 * Remotes are found at RUN time: GET /remotes.json next to the shell ({ storefront: '<url of
 * remoteEntry.js>', admin: … }), registered with the federation runtime, and each exposed screen is
 * loaded only when a route needs it. A remote that is down fails only the screens that use it.
 */
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import type { ComponentType } from 'react';

export type RemoteName = 'storefront' | 'admin';
export type RemoteManifest = Partial<Record<RemoteName, string>>;

let manifest: Promise<RemoteManifest> | null = null;

export async function fetchManifest(): Promise<RemoteManifest> {
  const response = await fetch('/remotes.json', { cache: 'no-cache' });
  if (!response.ok) throw new Error(`remotes.json answered ${response.status}`);
  const body = (await response.json()) as RemoteManifest;
  const entries = Object.entries(body).filter(
    (entry): entry is [RemoteName, string] => typeof entry[1] === 'string' && entry[1] !== '',
  );
  registerRemotes(
    entries.map(([name, entry]) => ({ name, entry: new URL(entry, window.location.href).href })),
    { force: true },
  );
  return Object.fromEntries(entries);
}

function registered(): Promise<RemoteManifest> {
  if (!manifest) {
    manifest = fetchManifest().catch((error: unknown) => {
      manifest = null; // try again next time
      throw error;
    });
  }
  return manifest;
}

const loadedScreens = new Map<string, ComponentType<never>>();

/** A screen loaded before (loadScreen), to render at once instead of suspending. */
export function loadedScreen<P>(remote: RemoteName, module: string): ComponentType<P> | undefined {
  return loadedScreens.get(`${remote}/${module}`) as ComponentType<P> | undefined;
}

/** The default export of `<remote>/<module>` (e.g. storefront/Inventory). */
export async function loadScreen<P>(
  remote: RemoteName,
  module: string,
): Promise<{ default: ComponentType<P> }> {
  const known = await registered();
  if (!known[remote]) throw new Error(`No location for the ${remote} frontend in remotes.json`);
  const loaded = await loadRemote<{ default: ComponentType<P> }>(`${remote}/${module}`);
  if (!loaded?.default) throw new Error(`${remote}/${module} could not be loaded`);
  loadedScreens.set(`${remote}/${module}`, loaded.default as ComponentType<never>);
  return loaded;
}
