import { useEffect, useState } from 'react';

/** Code loaded on demand: imported once (again after a failed try), at hand synchronously once here. */
export interface Chunk<M> {
  load(): Promise<M>;
  /** The module, once loaded (or provided). */
  readonly loaded: M | undefined;
  /** Hands the module over without loading it (the server renderer has no chunks to wait for). */
  provide(module: M): void;
}

export function chunkOnce<M>(importer: () => Promise<M>): Chunk<M> {
  let loaded: M | undefined;
  let loading: Promise<M> | undefined;
  return {
    load() {
      loading ??= importer().then(
        (module) => {
          loaded = module;
          return module;
        },
        (error: unknown) => {
          loading = undefined;
          throw error;
        },
      );
      return loading;
    },
    get loaded() {
      return loaded;
    },
    provide(module) {
      loaded = module;
    },
  };
}

/** A chunk's module for a component: asked for when it first renders (undefined until it is here). */
export function useChunk<M>(chunk: Chunk<M>): M | undefined {
  const [module, setModule] = useState(chunk.loaded);
  useEffect(() => {
    if (!module) chunk.load().then(setModule, () => undefined);
  }, [module, chunk]);
  return module ?? chunk.loaded;
}
