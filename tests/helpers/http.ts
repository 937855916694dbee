import type { AuthResult } from '../../src/shared/schemas/auth';

export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  token?: string | null;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Calls a REST route: JSON in, JSON (or text) out. */
export async function rest<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<HttpResult<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: BodyInit | undefined;
  if (options.body instanceof FormData || typeof options.body === 'string') body = options.body as BodyInit;
  else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed as T };
}

export interface TrpcResult<T = any> {
  status: number;
  /** `result.data` on success */
  data?: T;
  /** The tRPC error object on failure: message, code, data.{code,httpStatus,...} */
  error?: { message: string; code: number; data: { code: string; httpStatus: number; [key: string]: unknown } };
}

/** Calls one tRPC procedure over HTTP the way @trpc/client's httpLink does (no batching). */
export async function trpc<T = any>(
  baseUrl: string,
  kind: 'query' | 'mutation',
  procedure: string,
  input?: unknown,
  token?: string | null,
): Promise<TrpcResult<T>> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  let res: Response;
  if (kind === 'query') {
    const query = input === undefined ? '' : `?input=${encodeURIComponent(JSON.stringify(input))}`;
    res = await fetch(`${baseUrl}/trpc/${procedure}${query}`, { headers });
  } else {
    headers['content-type'] = 'application/json';
    res = await fetch(`${baseUrl}/trpc/${procedure}`, {
      method: 'POST',
      headers,
      body: input === undefined ? undefined : JSON.stringify(input),
    });
  }
  const json = (await res.json()) as { result?: { data: T }; error?: TrpcResult['error'] };
  return { status: res.status, data: json.result?.data, error: json.error };
}

let counter = 0;

/** Registers a fresh user (unique name per call) and returns its tokens and user. */
export async function registerUser(
  baseUrl: string,
  username?: string,
  password = 'correct horse battery',
): Promise<AuthResult & { password: string }> {
  const name = username ?? `user${process.pid}x${Date.now().toString(36)}x${counter++}`;
  const res = await rest<AuthResult>(baseUrl, 'POST', '/api/auth/register', { body: { username: name, password } });
  if (res.status !== 200) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { ...res.body, password };
}
