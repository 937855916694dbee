import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { AuthResult, UserDto } from '../../shared/schemas/auth';
import { clearSession, readSession, refreshToken, storeSession, storeUser } from './session';
import { trpc } from './trpc';

export type AuthStatus = 'loading' | 'authenticated' | 'unauthenticated';

export interface AuthState {
  status: AuthStatus;
  user: UserDto | null;
  /** Stores the tokens and user of a login or registration. */
  signIn: (result: AuthResult) => void;
  signOut: () => Promise<void>;
  updateUser: (user: UserDto) => void;
}

const AuthContext = createContext<AuthState | null>(null);

/**
 * Restores a stored session on load (confirming it with the server, which also
 * renews an expired access token) and keeps the signed-in user for the app.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  const [stored] = useState(readSession);
  const [user, setUser] = useState<UserDto | null>(stored?.user ?? null);
  const [status, setStatus] = useState<AuthStatus>(stored ? 'loading' : 'unauthenticated');
  const logout = trpc.auth.logout.useMutation();

  useEffect(() => {
    if (!stored) return;
    let cancelled = false;
    utils.auth.me
      .fetch()
      .then((fresh) => {
        if (cancelled) return;
        storeUser(fresh);
        setUser(fresh);
        setStatus('authenticated');
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        const httpStatus = (error as { data?: { httpStatus?: number } | null } | null)?.data?.httpStatus;
        if (httpStatus === 401) {
          clearSession();
          setUser(null);
          setStatus('unauthenticated');
        } else {
          // Server unreachable: keep the stored session; calls will retry.
          setStatus('authenticated');
        }
      });
    return () => {
      cancelled = true;
    };
  }, [stored, utils]);

  const signIn = useCallback((result: AuthResult) => {
    storeSession(result);
    setUser(result.user);
    setStatus('authenticated');
  }, []);

  const signOut = useCallback(async () => {
    const token = refreshToken();
    clearSession();
    setUser(null);
    setStatus('unauthenticated');
    queryClient.clear();
    if (token) {
      try {
        await logout.mutateAsync({ refreshToken: token });
      } catch {
        // The tokens are gone from this browser either way.
      }
    }
  }, [logout, queryClient]);

  const updateUser = useCallback((next: UserDto) => {
    storeUser(next);
    setUser(next);
  }, []);

  const value = useMemo<AuthState>(
    () => ({ status, user, signIn, signOut, updateUser }),
    [status, user, signIn, signOut, updateUser],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside <AuthProvider>');
  return value;
}
