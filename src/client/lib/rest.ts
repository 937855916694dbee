import { accessToken } from './session';
import { onSessionExpired, refreshOnce } from './authFetch';

/** A REST call the server refused: `message` is the server's text (`error`/`message` of the body). */
export class RestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown> | null,
  ) {
    super(message);
    this.name = 'RestError';
  }
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

interface XhrResult {
  status: number;
  text: string;
}

function sendOnce(url: string, body: FormData, onProgress?: (p: UploadProgress) => void): Promise<XhrResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    const token = accessToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress?.({ loaded: event.loaded, total: event.total });
    };
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
    xhr.onerror = () => reject(new Error('Network error'));
    xhr.onabort = () => reject(new Error('Upload aborted'));
    xhr.send(body);
  });
}

function parseBody(text: string): Record<string, unknown> | null {
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * POSTs a multipart form with upload progress (fetch cannot report it), with the
 * same token handling as every other call: one refresh and one retry on 401/403.
 * Resolves with the JSON answer; rejects with a RestError carrying the server's message.
 */
export async function postFormWithProgress<T>(
  url: string,
  body: FormData,
  onProgress?: (p: UploadProgress) => void,
): Promise<T> {
  const sentWith = accessToken();
  let result = await sendOnce(url, body, onProgress);
  if (sentWith && (result.status === 401 || result.status === 403)) {
    const renewed = accessToken() !== sentWith || (await refreshOnce());
    if (!renewed) {
      onSessionExpired();
      throw new RestError(result.status, 'Your session has ended. Please log in again.', null);
    }
    result = await sendOnce(url, body, onProgress);
  }
  const parsed = parseBody(result.text);
  if (result.status < 200 || result.status >= 300) {
    const message =
      typeof parsed?.error === 'string' ? parsed.error : typeof parsed?.message === 'string' ? parsed.message : '';
    throw new RestError(result.status, message, parsed);
  }
  return parsed as T;
}
