import { LoginScreen } from './LoginScreen';

/**
 * /login: the login card. Once signed in, the route's guard (routes.tsx, re-run by main.tsx when the
 * session changes) takes the person to the screen that sent them here (`redirect`).
 */
export function LoginRoute() {
  return <LoginScreen />;
}
