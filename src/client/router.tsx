import { Typography } from '@mui/material';
import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, createRouter, lazyRouteComponent, Outlet } from '@tanstack/react-router';
import { AppShell } from './components/AppShell';
import { LoadingScreen } from './components/LoadingScreen';
import { registerSearchSchema } from './features/accounts/registerSearch';
import { LoginScreen } from './features/auth/LoginScreen';
import { BudgetEditorScreen } from './features/budgets/BudgetEditorScreen';
import { BudgetsScreen } from './features/budgets/BudgetsScreen';
import { CategoriesScreen } from './features/categories/CategoriesScreen';
import { EnvelopesScreen } from './features/envelopes/EnvelopesScreen';
import { ProfileScreen } from './features/profile/ProfileScreen';
import { reportSearchSchema } from './features/reports/reportSearch';
import { RulesScreen } from './features/rules/RulesScreen';
import { EditTransactionScreen } from './features/transactions/EditTransactionScreen';
import { transactionSearchSchema } from './features/transactions/searchParams';
import { TransactionSearchScreen } from './features/transactions/TransactionSearchScreen';
import { UploadScreen } from './features/upload/UploadScreen';
import { useAuth } from './lib/auth';

export interface RouterContext {
  queryClient: QueryClient;
}

/** 'Loading...' while the auth state loads; only the login screen until signed in. */
function Root() {
  const auth = useAuth();
  if (auth.status === 'loading') return <LoadingScreen />;
  if (auth.status !== 'authenticated') return <LoginScreen />;
  return (
    <AppShell>
      <Outlet />
    </AppShell>
  );
}

function NotFound() {
  return (
    <Typography variant="h1" gutterBottom>
      Page not found
    </Typography>
  );
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Root,
  notFoundComponent: NotFound,
});

const routes = [
  createRoute({ getParentRoute: () => rootRoute, path: '/', component: BudgetsScreen }),
  createRoute({ getParentRoute: () => rootRoute, path: '/envelopes', component: EnvelopesScreen }),
  createRoute({ getParentRoute: () => rootRoute, path: '/categories', component: CategoriesScreen }),
  createRoute({ getParentRoute: () => rootRoute, path: '/upload', component: UploadScreen }),
  createRoute({ getParentRoute: () => rootRoute, path: '/create-budget', component: BudgetEditorScreen }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: '/transactions',
    component: TransactionSearchScreen,
    validateSearch: (search: Record<string, unknown>) => transactionSearchSchema.parse(search),
  }),
  createRoute({ getParentRoute: () => rootRoute, path: '/create-transaction', component: EditTransactionScreen }),
  createRoute({ getParentRoute: () => rootRoute, path: '/profile', component: ProfileScreen }),
  // The charts library loads with the Reports screen only.
  createRoute({
    getParentRoute: () => rootRoute,
    path: '/reports',
    component: lazyRouteComponent(() => import('./features/reports/ReportsScreen'), 'ReportsScreen'),
    validateSearch: (search: Record<string, unknown>) => reportSearchSchema.parse(search),
  }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: '/accounts/$id',
    component: lazyRouteComponent(() => import('./features/accounts/AccountRegisterScreen'), 'AccountRegisterScreen'),
    validateSearch: (search: Record<string, unknown>) => registerSearchSchema.parse(search),
  }),
  createRoute({ getParentRoute: () => rootRoute, path: '/rules', component: RulesScreen }),
];

export function createAppRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree: rootRoute.addChildren(routes),
    context: { queryClient },
    defaultPreload: 'intent',
    scrollRestoration: true,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}
