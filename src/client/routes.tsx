import { Typography } from '@mui/material';
import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, createRoute, lazyRouteComponent, Outlet, redirect } from '@tanstack/react-router';
import type { createTRPCQueryUtils } from '@trpc/react-query';
import * as z from 'zod/mini';
import { isMonth } from '../shared/plan/months';
import { AppShell } from './components/AppShell';
import { registerSearchSchema } from './features/accounts/registerSearch';
import { reportSearchSchema } from './features/reports/reportSearch';
import { transactionSearchSchema } from './features/transactions/searchParams';
import { type AuthState, useAuth } from './lib/auth';
import { thisMonth } from './lib/today';
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

export type NavPlace = 'bar' | 'wide' | 'more';

declare module '@tanstack/react-router' {
  interface StaticDataRouteOption {
    /** The label of the screen's link in the navigation bar; screens without one are not listed. */
    nav?: string;
    /**
     * Where the wide screens' bar lists it: inline (the default), inline only from 1400 px and under More below
     * that (`wide`), or always under More (`more`). The drawer of narrow screens lists every screen alike.
     */
    navPlace?: NavPlace;
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
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- TanStack Router's beforeLoad redirects by throwing redirect()
    if (context.auth.status === 'authenticated') throw redirect({ href: safeRedirect(search.redirect), replace: true });
  },
  component: lazyRouteComponent(() => import('./features/auth/LoginRoute'), 'LoginRoute'),
});

/** Signed-in screens: anyone else is sent to the login card, and back here after signing in. */
function AuthLayout() {
  const auth = useAuth();
  // Signed out while on a screen (Logout, or a session that could not be renewed): main.tsx re-runs
  // `beforeLoad` below, which sends the person to /login once; nothing of the screen shows meanwhile.
  if (auth.status !== 'authenticated') return null;
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
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- TanStack Router's beforeLoad redirects by throwing redirect()
      throw redirect({ to: '/login', search: location.href === '/' ? {} : { redirect: location.href }, replace: true });
    }
  },
  component: AuthLayout,
});

const optionalText = z.optional(z.catch(z.string(), ''));
const optionalId = z.optional(z.catch(z.number(), 0));

const budgetsRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/',
  staticData: { nav: 'Budgets' },
  // The selected budget: a reload or a shared link shows it again.
  validateSearch: z.object({ budget: optionalId }),
  loader: ({ context }) => void context.trpc.budgets.list.prefetch(),
  component: lazyRouteComponent(() => import('./features/budgets/BudgetsScreen'), 'BudgetsScreen'),
});

// The month's plan: /plan is this month, /plan/YYYY-MM any other.
const planRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/plan',
  staticData: { nav: 'Plan' },
  loader: ({ context }) => void context.trpc.plan.get.prefetch({ month: thisMonth() }),
  component: lazyRouteComponent(() => import('./features/plan/PlanScreen'), 'PlanScreen'),
});

const planMonthRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/plan/$month',
  loader: ({ context, params }) => {
    if (isMonth(params.month)) void context.trpc.plan.get.prefetch({ month: params.month });
  },
  component: lazyRouteComponent(() => import('./features/plan/PlanScreen'), 'PlanMonthScreen'),
});

const envelopesRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/envelopes',
  staticData: { nav: 'Envelopes', navPlace: 'wide' },
  loader: ({ context }) => void context.trpc.envelopes.list.prefetch({}),
  component: lazyRouteComponent(() => import('./features/envelopes/EnvelopesScreen'), 'EnvelopesScreen'),
});

const categoriesRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/categories',
  staticData: { nav: 'Categories', navPlace: 'wide' },
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
  staticData: { nav: 'Create Budget', navPlace: 'wide' },
  // Copy Budget: the budget whose line items the new one starts with.
  validateSearch: z.object({ copy: optionalId }),
  loaderDeps: ({ search }) => ({ copy: search.copy }),
  loader: ({ context, deps }) => {
    void context.trpc.categories.list.prefetch();
    if (deps.copy) void context.trpc.budgets.lineItems.prefetch({ budgetId: deps.copy });
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
  // A link (a report's bar or payee, or shared) opens the screen on exactly its filters.
  validateSearch: (search: Record<string, unknown>) => transactionSearchSchema.parse(search),
  loader: ({ context }) => {
    void context.trpc.categories.list.prefetch();
    void context.trpc.accounts.list.prefetch();
  },
  component: lazyRouteComponent(
    () => import('./features/transactions/TransactionSearchScreen'),
    'TransactionSearchScreen',
  ),
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

const editTransactionRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/transactions/$id/edit',
  params: {
    parse: (raw: { id: string }) => ({ id: Number(raw.id) }),
    stringify: (params: { id: number }) => ({ id: String(params.id) }),
  },
  loader: ({ context, params }) => {
    void context.trpc.categories.list.prefetch();
    void context.trpc.accounts.list.prefetch();
    if (Number.isSafeInteger(params.id) && params.id > 0)
      void context.trpc.transactions.get.prefetch({ id: params.id });
  },
  component: lazyRouteComponent(
    () => import('./features/transactions/EditTransactionScreen'),
    'EditStoredTransactionScreen',
  ),
});

const historyRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/history',
  staticData: { nav: 'History', navPlace: 'more' },
  // The tab shown: the changes or the trash.
  validateSearch: z.object({ view: z.catch(z.enum(['changes', 'trash']), 'changes') }),
  loader: ({ context }) => void context.trpc.history.list.prefetch({ limit: 50, offset: 0 }),
  component: lazyRouteComponent(() => import('./features/history/HistoryScreen'), 'HistoryScreen'),
});

const profileRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/profile',
  staticData: { nav: 'Profile' },
  component: lazyRouteComponent(() => import('./features/profile/ProfileScreen'), 'ProfileScreen'),
});

// The charts library loads with the Reports screen only.
const reportsRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/reports',
  staticData: { nav: 'Reports' },
  validateSearch: (search: Record<string, unknown>) => reportSearchSchema.parse(search),
  component: lazyRouteComponent(() => import('./features/reports/ReportsScreen'), 'ReportsScreen'),
});

const accountsRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/accounts',
  staticData: { nav: 'Accounts' },
  loader: ({ context }) => void context.trpc.accounts.list.prefetch(),
  component: lazyRouteComponent(() => import('./features/accounts/AccountsScreen'), 'AccountsScreen'),
});

const accountRegisterRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/accounts/$id',
  validateSearch: (search: Record<string, unknown>) => registerSearchSchema.parse(search),
  component: lazyRouteComponent(() => import('./features/accounts/AccountRegisterScreen'), 'AccountRegisterScreen'),
});

const rulesRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/rules',
  staticData: { nav: 'Rules', navPlace: 'more' },
  loader: ({ context }) => {
    void context.trpc.rules.list.prefetch();
  },
  component: lazyRouteComponent(() => import('./features/rules/RulesScreen'), 'RulesScreen'),
});

const schedulesRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/schedules',
  staticData: { nav: 'Schedules', navPlace: 'more' },
  loader: ({ context }) => {
    void context.trpc.schedules.list.prefetch();
    void context.trpc.accounts.list.prefetch();
  },
  component: lazyRouteComponent(() => import('./features/schedules/SchedulesScreen'), 'SchedulesScreen'),
});

const ratesRoute = createRoute({
  getParentRoute: () => authRoute,
  path: '/rates',
  staticData: { nav: 'Rates', navPlace: 'more' },
  loader: ({ context }) => void context.trpc.rates.pairs.prefetch(),
  component: lazyRouteComponent(() => import('./features/rates/RatesScreen'), 'RatesScreen'),
});

/** The signed-in screens; the navigation bar lists those with `staticData.nav`, in this order. */
export const SCREENS = [
  budgetsRoute,
  planRoute,
  envelopesRoute,
  categoriesRoute,
  accountsRoute,
  uploadRoute,
  createBudgetRoute,
  transactionsRoute,
  createTransactionRoute,
  editTransactionRoute,
  reportsRoute,
  rulesRoute,
  schedulesRoute,
  ratesRoute,
  historyRoute,
  profileRoute,
  accountRegisterRoute,
  editBudgetRoute,
  planMonthRoute,
] as const;

export const routeTree = rootRoute.addChildren([loginRoute, authRoute.addChildren([...SCREENS])]);

/**
 * The navigation bar's links, from `SCREENS`. Read from `options.path` (screens hang off the pathless
 * `_auth` layout, so it is the full path): `route.fullPath` is only set once a router is created.
 */
export const NAV_LINKS = SCREENS.flatMap((route) => {
  const label = route.options.staticData?.nav;
  const place: NavPlace = route.options.staticData?.navPlace ?? 'bar';
  return label ? [{ to: (route.options as { path: string }).path as (typeof route)['fullPath'], label, place }] : [];
});
