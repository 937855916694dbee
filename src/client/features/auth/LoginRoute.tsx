import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useAuth } from '../../lib/auth';
import { safeRedirect } from '../../routes';
import { LoginScreen } from './LoginScreen';

const route = getRouteApi('/login');

/** /login: the login card; once signed in, the screen that sent the person here (`redirect`). */
export function LoginRoute() {
  const auth = useAuth();
  const navigate = useNavigate();
  const { redirect } = route.useSearch();
  useEffect(() => {
    if (auth.status === 'authenticated') void navigate({ href: safeRedirect(redirect), replace: true });
  }, [auth.status, redirect, navigate]);
  return <LoginScreen />;
}
