import { createRouter } from '@tanstack/react-router';
import { LoadingScreen } from './components/LoadingScreen';
import { routeTree, type RouterContext } from './routes';

export type { RouterContext };

/** The app's router over the route tree of routes.tsx (add screens there). */
export function createAppRouter(context: Omit<RouterContext, 'auth'>) {
  return createRouter({
    routeTree,
    context: { ...context, auth: { status: 'loading' } },
    defaultPreload: 'intent',
    // Loaders only start fetches (screens show their own loading state): nothing to keep fresh here.
    defaultPreloadStaleTime: 0,
    defaultPendingComponent: LoadingScreen,
    scrollRestoration: true,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
