import { CssBaseline, ThemeProvider, useMediaQuery } from '@mui/material';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { createTRPCQueryUtils } from '@trpc/react-query';
import { StrictMode, useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { LoadingScreen } from './components/LoadingScreen';
import { AuthProvider, useAuth } from './lib/auth';
import { createQueryClient, createTrpcClient, trpc } from './lib/trpc';
import { createAppRouter } from './router';
import { REDUCED_MOTION_QUERY, themeFor } from './theme/theme';
import { RowStyles } from './components/transactions/rowStyles';

/** The router, once the stored session is confirmed or refused ('Loading...' until then). */
function Routes({ router }: { router: ReturnType<typeof createAppRouter> }) {
  const auth = useAuth();
  // Signing in or out re-runs the routes' guards (routes.tsx): /login leaves for `redirect`, a
  // signed-in screen leaves for /login (remembering itself), each exactly once.
  const seen = useRef(auth.status);
  useEffect(() => {
    const before = seen.current;
    seen.current = auth.status;
    // From 'loading' the router mounts for the first time and runs them anyway.
    if (before !== auth.status && before !== 'loading' && auth.status !== 'loading') void router.invalidate();
  }, [auth.status, router]);
  if (auth.status === 'loading') return <LoadingScreen />;
  return <RouterProvider router={router} context={{ auth: { status: auth.status } }} />;
}

function App() {
  const [queryClient] = useState(createQueryClient);
  const [trpcClient] = useState(createTrpcClient);
  const [router] = useState(() =>
    createAppRouter({ queryClient, trpc: createTRPCQueryUtils({ queryClient, client: trpcClient }) }),
  );
  // A user who asked their system for reduced motion gets no fades, grows or ripples (read at once, and followed).
  const reducedMotion = useMediaQuery(REDUCED_MOTION_QUERY, { noSsr: true });
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <ThemeProvider theme={themeFor(reducedMotion)} defaultMode="system">
          <CssBaseline enableColorScheme />
          <RowStyles />
          <AuthProvider>
            <Routes router={router} />
          </AuthProvider>
        </ThemeProvider>
      </QueryClientProvider>
    </trpc.Provider>
  );
}

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('index.html has no #root element');
createRoot(rootElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
