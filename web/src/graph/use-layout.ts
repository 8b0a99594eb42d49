import { useEffect, useMemo, useState } from 'preact/hooks';
import type { GraphLayout, LayoutInput } from './layout';

type LayoutModule = typeof import('./layout');

/** The layout code (dagre) is fetched the first time a graph is shown, so pages without one do not load it. */
let loading: Promise<LayoutModule> | undefined;
let loaded: LayoutModule | undefined;

/** The steps laid out, or null while the layout code is still on its way. */
export function useLayout(steps: LayoutInput[]): GraphLayout | null {
  const [module, setModule] = useState<LayoutModule | undefined>(loaded);
  useEffect(() => {
    if (module) return;
    let current = true;
    loading ??= import('./layout');
    loading.then(
      (fetched) => {
        loaded = fetched;
        if (current) setModule(() => fetched);
      },
      () => {
        // A failed fetch (the service restarted with a new build) is tried again by the next graph shown.
        loading = undefined;
      },
    );
    return () => {
      current = false;
    };
  }, [module]);
  return useMemo(() => (module ? module.layOut(steps) : null), [module, steps]);
}
