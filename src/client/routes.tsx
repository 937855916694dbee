import { Typography } from '@mui/material';
import type { QueryClient } from '@tanstack/react-query';
import {
  createRootRouteWithContext,
  createRoute,
  lazyRouteComponent,
  Outlet,
  redirect,
  useNavigate,
} from '@tanstack/react-router';
import type { createTRPCQueryUtils } from '@trpc/react-query';
import { useEffect } from 'react';
import * as z from 'zod/mini';
import { AppShell } from './components/AppShell';
import { type AuthState, useAuth } from './lib/auth';
import type { AppRouter } from './lib/trpc';

/**
 * Every screen of the app, in one list that feeds both the router and the navigation bar.
 *
 * To add a screen: add one `createRoute({ getParentRoute: () => authRoute, path, component:
 * lazyRouteComponent(() => import('./features/x/XScreen'), 'XScreen') })` to `SCREENS` below.
 * Give it `staticData: { nav: 'Label' }` to list it in the navigation bar (in `SCREENS` order),
 * `validateSearch` (a zod schema) for what its URL remembers, and a `loader` that starts fetching
 * its data through `context.trpc` (without awaiting, so the screen shows its own loading state).
 * Screens outside sign-in hang off `rootRoute` instead of `authRoute`.
 */

export interface RouterContext {
  queryClient: QueryClient;
  /** tRPC query utilities outside React: `context.trpc.budgets.list.prefetch()` in loaders. */
  trpc: ReturnType<typeof createTRPCQueryUtils<AppRouter>>;
  auth: Pick<AuthState, 'status'>;
}

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    /** The label of the screen's link in the navigation bar; screens without one are not listed. */
    nav?: string;
  }
}

function NotFound() {
  return (
    <Typography variant="h1" gutterBottom>
      Page not found
    </Typography>
  );
}

export const rootRoute = createRootRouteWithContext<RouterContext>()({
  component: Outlet,
  notFoundComponent: NotFound,
});

/** Where to go after signing in: a path of this app only (never another site). */
export function safeRedirect(target: string | undefined): string {
  return target && target.startsWith('/') && !target.startsWith('//') && !target.startsWith('/\\') ? target : '/';
}

const loginRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/login',
  validateSearch: z.object({ redirect: z.optional(z.catch(z.string(), '/')) }),
  beforeLoad: ({ context, search }) => {
    if (context.auth.status === 'authenticated') throw redirect({ href: safeRedirect(search.redirect), replace: true });
  },
  component: lazyRouteComponent(() => import('./features/auth/LoginRoute'), 'LoginRoute'),
});

/** Signed-in screens: anyone else is sent to the login card, and back here after signing in. */
function AuthLayout() {
  const auth = useAuth();
  const navigate = useNavigate();
  const signedIn = auth.status === 'authenticated';
  // Signed out while on a screen (Logout, or a session that could not be renewed): once, to the login card.
  useEffect(() => {
    if (!signedIn) void navigate({ to: '/login', replace: true });
  }, [signedIn, navigate]);
  if (!signedIn) return null;
  return (
    <AppShell>
      <Outlet />
    </AppShell>
  );
}

export const authRoute = createRoute({
  getParentRoute: () => rootRoute,
  id: '_auth',
  beforeLoad: ({ context, location }) => {
    if (context.auth.status !== 'authenticated') {
      throw redirect({ to: '/login', search: location.href === '/' ? {} : { redirect: location.href }, replace: true });
    }
  },
  component: AuthLayout,
});

const optionalText = z.optional(z.catch(z.string(), ''));
const optionalId = z.optional(z.catch(z.number(), 0));

/** What the Transaction Search URL holds: the search as typed. Without dates it opens on this month. */
export const transactionSearchSchema = z.object({
  start: optionalText,
  end: optionalText,
  categories: z.optional(z.catch(z.array(z.string()), [])),
  account: optionalText,
  description: optionalText,
  min: optionalText,
  max: optionalText,
});
export type TransactionSearchParams = z.infer<typeof transactionSearchSchema>;

const budgetsRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/',
  staticData: { nav: 'Budgets' },
  // The selected budget: a reload or a shared link shows it again.
  validateSearch: z.object({ budget: optionalId }),
  loader: ({ context }) => void context.trpc.budgets.list.prefetch(),
  component: lazyRouteComponent(() => import('./features/budgets/BudgetsScreen'), 'BudgetsScreen'),
});

const envelopesRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/envelopes',
  staticData: { nav: 'Envelopes' },
  loader: ({ context }) => void context.trpc.envelopes.list.prefetch({}),
  component: lazyRouteComponent(() => import('./features/envelopes/EnvelopesScreen'), 'EnvelopesScreen'),
});

const categoriesRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/categories',
  staticData: { nav: 'Categories' },
  loader: ({ context }) => void context.trpc.categories.list.prefetch(),
  component: lazyRouteComponent(() => import('./features/categories/CategoriesScreen'), 'CategoriesScreen'),
});

const uploadRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/upload',
  staticData: { nav: 'Upload' },
  // The batch being inspected.
  validateSearch: z.object({ batch: optionalText }),
  loader: ({ context }) => {
    void context.trpc.accounts.list.prefetch();
    void context.trpc.transactions.batches.prefetch();
  },
  component: lazyRouteComponent(() => import('./features/upload/UploadScreen'), 'UploadScreen'),
});

const createBudgetRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/create-budget',
  staticData: { nav: 'Create Budget' },
  // Copy Budget: the budget whose line items the new one starts with.
  validateSearch: z.object({ copy: optionalId }),
  loader: ({ context, location }) => {
    void context.trpc.categories.list.prefetch();
    const copy = (location.search as { copy?: number }).copy;
    if (copy) void context.trpc.budgets.lineItems.prefetch({ budgetId: copy });
  },
  component: lazyRouteComponent(() => import('./features/budgets/BudgetEditorScreen'), 'BudgetEditorScreen'),
});

const editBudgetRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/budgets/$id/edit',
  params: {
    parse: (raw: { id: string }) => ({ id: Number(raw.id) }),
    stringify: (params: { id: number }) => ({ id: String(params.id) }),
  },
  loader: ({ context, params }) => {
    void context.trpc.categories.list.prefetch();
    void context.trpc.budgets.list.prefetch();
    if (Number.isSafeInteger(params.id)) void context.trpc.budgets.lineItems.prefetch({ budgetId: params.id });
  },
  component: lazyRouteComponent(() => import('./features/budgets/BudgetEditorScreen'), 'EditBudgetScreen'),
});

const transactionsRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/transactions',
  staticData: { nav: 'Transactions' },
  validateSearch: transactionSearchSchema,
  loader: ({ context }) => {
    void context.trpc.categories.list.prefetch();
    void context.trpc.accounts.list.prefetch();
  },
  component: lazyRouteComponent(() => import('./features/transactions/TransactionSearchScreen'), 'TransactionSearchScreen'),
});

const createTransactionRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/create-transaction',
  loader: ({ context }) => {
    void context.trpc.categories.list.prefetch();
    void context.trpc.accounts.list.prefetch();
  },
  component: lazyRouteComponent(() => import('./features/transactions/EditTransactionScreen'), 'EditTransactionScreen'),
});

const profileRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/profile',
  staticData: { nav: 'Profile' },
  component: lazyRouteComponent(() => import('./features/profile/ProfileScreen'), 'ProfileScreen'),
});

/** The signed-in screens; the navigation bar lists those with `staticData.nav`, in this order. */
export const SCREENS = [
  budgetsRoute,
  envelopesRoute,
  categoriesRoute,
  uploadRoute,
  createBudgetRoute,
  transactionsRoute,
  createTransactionRoute,
  profileRoute,
  editBudgetRoute,
] as const;

export const routeTree = rootRoute.addChildren([loginRoute, authRoute.addChildren([...SCREENS])]);

/** The navigation bar's links, from `SCREENS` (read once the router has built the tree: `fullPath` is set then). */
export function navLinks() {
  return SCREENS.flatMap((route) => (route.options.staticData?.nav ? [{ to: route.fullPath, label: route.options.staticData.nav }] : []));
}
