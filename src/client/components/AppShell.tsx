import { Box, Container } from '@mui/material';
import { useRouter } from '@tanstack/react-router';
import { useEffect, useRef, type MouseEvent, type ReactNode } from 'react';
import { focusHeadingWhenReady, focusWithoutTabStop, pageHeading } from '../lib/pageFocus';
import { NavBar } from './NavBar';
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

/** "Skip to content": the first stop of the keyboard, shown only while focused. */
function SkipLink({ main }: { main: React.RefObject<HTMLElement | null> }) {
  function skip(event: MouseEvent) {
    event.preventDefault();
    if (!main.current) return;
    focusWithoutTabStop(pageHeading(main.current) ?? main.current);
  }
  return (
    <Box
      component="a"
      href={`#${MAIN_ID}`}
      onClick={skip}
      sx={{
        position: 'absolute',
        left: 8,
        top: 8,
        zIndex: (theme) => theme.zIndex.tooltip + 1,
        px: 2,
        py: 1,
        borderRadius: 1,
        bgcolor: 'background.paper',
        color: 'primary.main',
        fontWeight: 600,
        boxShadow: 3,
        transform: 'translateY(-200%)',
        '&:focus': { transform: 'none' },
      }}
    >
      Skip to content
    </Box>
  );
}

export function AppShell({ children }: { children: ReactNode }) {
  const main = useRef<HTMLElement>(null);
  useHeadingFocusOnNavigate(main);
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <SkipLink main={main} />
      <NavBar />
      <Container
        component="main"
        id={MAIN_ID}
        ref={main}
        tabIndex={-1}
        maxWidth={false}
        sx={{ py: { xs: 2, md: 3 }, px: { xs: 1.5, sm: 2, md: 3 }, maxWidth: 1600, outline: 'none' }}
      >
        {children}
      </Container>
      <UndoShortcuts />
    </Box>
  );
}
