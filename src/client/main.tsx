import { CssBaseline, ThemeProvider } from '@mui/material';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { createTRPCQueryUtils } from '@trpc/react-query';
import { StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { LoadingScreen } from './components/LoadingScreen';
import { AuthProvider, useAuth } from './lib/auth';
import { createQueryClient, createTrpcClient, trpc } from './lib/trpc';
import { createAppRouter } from './router';
import { theme } from './theme/theme';

/** The router, once the stored session is confirmed or refused ('Loading...' until then). */
function Routes({ router }: { router: ReturnType<typeof createAppRouter> }) {
  const auth = useAuth();
  if (auth.status === 'loading') return <LoadingScreen />;
  return <RouterProvider router={router} context={{ auth: { status: auth.status } }} />;
}

function App() {
  const [queryClient] = useState(createQueryClient);
  const [trpcClient] = useState(createTrpcClient);
  const [router] = useState(() => createAppRouter({ queryClient, trpc: createTRPCQueryUtils({ queryClient, client: trpcClient }) }));
  return (
    <trpc.Provider client={trpcClient} queryClient={queryClient}>
      <QueryClientProvider client={queryClient}>
        <ThemeProvider theme={theme} defaultMode="system">
          <CssBaseline enableColorScheme />
          <AuthProvider>
            <Routes router={router} />
          </AuthProvider>
        </ThemeProvider>
      </QueryClientProvider>
    </trpc.Provider>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
