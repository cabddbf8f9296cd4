/**
 * The server bundle's stand-in for ../remotes.ts (swapped in by the server build, infra's
 * server-renderer.ts): the storefront's public screen is imported directly, the same source the
 * remote exposes, since there is no federation runtime on the server. Only the public pages are
 * rendered there.
 */

import { Inventory } from '@decor/storefront/server';
import type { ComponentType } from 'react';

export type RemoteName = 'storefront' | 'admin';

const SCREENS: Record<string, ComponentType> = { 'storefront/Inventory': Inventory };

export function loadedScreen<P>(remote: RemoteName, module: string): ComponentType<P> | undefined {
  return SCREENS[`${remote}/${module}`] as ComponentType<P> | undefined;
}

export async function loadScreen<P>(
  remote: RemoteName,
  module: string,
): Promise<{ default: ComponentType<P> }> {
  const screen = loadedScreen<P>(remote, module);
  if (!screen) throw new Error(`${remote}/${module} is not rendered on the server`);
  return { default: screen };
}
