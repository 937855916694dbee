import { Box, Container } from '@mui/material';
import { useRouter } from '@tanstack/react-router';
import { useEffect, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { focusHeadingWhenReady, focusWithoutTabStop, pageHeading } from '../lib/pageFocus';
import { HomeCurrencyPrompt } from './HomeCurrencyPrompt';
import { NavBar } from './NavBar';
import { SkipTargetContext, type SkipTarget } from './skipTarget';
import { UndoShortcuts } from './UndoShortcuts';

export const MAIN_ID = 'main-content';

/**
 * Every route change puts focus on the new page's heading (not on the first visit), once the
 * router has rendered the new page (navigations render in a transition, after the URL changed).
 */
function useHeadingFocusOnNavigate(main: React.RefObject<HTMLElement | null>) {
  const router = useRouter();
  useEffect(() => {
    let cancel: (() => void) | null = null;
    const unsubscribe = router.subscribe('onRendered', (event) => {
      if (!event.fromLocation || !event.pathChanged || !main.current) return;
      cancel?.();
      cancel = focusHeadingWhenReady(main.current);
    });
    return () => {
      unsubscribe();
      cancel?.();
    };
  }, [router, main]);
}

const skipLinkSx = {
  position: 'absolute',
  left: 8,
  top: 8,
  zIndex: (theme: { zIndex: { tooltip: number } }) => theme.zIndex.tooltip + 1,
  px: 2,
  py: 1,
  borderRadius: 1,
  bgcolor: 'background.paper',
  color: 'primary.main',
  fontWeight: 600,
  boxShadow: 3,
  transform: 'translateY(-200%)',
  '&:focus': { transform: 'none' },
} as const;

/** A link that moves focus to `target()` (or the page heading); the keyboard's first stops, shown only while focused. */
function SkipLink({ href, label, target }: { href: string; label: string; target: () => HTMLElement | null }) {
  function skip(event: MouseEvent) {
    event.preventDefault();
    const element = target();
    if (element) focusWithoutTabStop(element);
  }
  return (
    <Box component="a" href={href} onClick={skip} sx={skipLinkSx}>
      {label}
    </Box>
  );
}

/**
 * The page frame: skip links, navigation bar and main area. A screen may offer a skip link of its own
 * (useSkipTarget, e.g. "Skip to results"): it comes before "Skip to content", the first stop of the page.
 */
export function AppShell({ children }: { children: ReactNode }) {
  const main = useRef<HTMLElement>(null);
  const [extra, setExtra] = useState<SkipTarget | null>(null);
  useHeadingFocusOnNavigate(main);
  const mainTarget = () => (main.current ? (pageHeading(main.current) ?? main.current) : null);
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      {extra && (
        <SkipLink
          href={`#${extra.targetId}`}
          label={extra.label}
          target={() => document.getElementById(extra.targetId) ?? mainTarget()}
        />
      )}
      <SkipLink href={`#${MAIN_ID}`} label="Skip to content" target={mainTarget} />
      <NavBar />
      <Container
        component="main"
        id={MAIN_ID}
        ref={main}
        tabIndex={-1}
        maxWidth={false}
        sx={{ py: { xs: 2, md: 3 }, px: { xs: 1.5, sm: 2, md: 3 }, maxWidth: 1600, outline: 'none' }}
      >
        <HomeCurrencyPrompt />
        <SkipTargetContext.Provider value={setExtra}>{children}</SkipTargetContext.Provider>
      </Container>
      <UndoShortcuts />
    </Box>
  );
}
