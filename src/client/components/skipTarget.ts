import { createContext, useContext, useEffect } from 'react';

/** A screen's own skip link: its text and the id of the element it moves focus to. */
export interface SkipTarget {
  label: string;
  targetId: string;
}

/** Set by AppShell: a screen names its skip target, or null when it leaves. */
export const SkipTargetContext = createContext<(target: SkipTarget | null) => void>(() => undefined);

/** Offers a skip link to `targetId` as the page's first keyboard stop while the calling screen is shown. */
export function useSkipTarget(label: string, targetId: string) {
  const set = useContext(SkipTargetContext);
  useEffect(() => {
    set({ label, targetId });
    return () => set(null);
  }, [set, label, targetId]);
}
