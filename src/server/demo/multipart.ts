import { randomBytes } from 'node:crypto';

/**
 * A multipart/form-data body built by hand, as a browser would send the upload form, for
 * `app.inject` (which takes a Buffer payload and the matching content-type header).
 */
export interface MultipartBody {
  payload: Buffer;
  contentType: string;
}

function quoted(text: string): string {
  return text.replace(/[\r\n"]/g, (c) => encodeURIComponent(c));
}

export function multipartBody(
  fields: Record<string, string | undefined>,
  file: { field: string; fileName: string; content: string | Uint8Array; contentType?: string },
): MultipartBody {
  const boundary = `----demo${randomBytes(12).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`,
        'utf8',
      ),
    );
  }
  chunks.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(file.field)}"; filename="${quoted(file.fileName)}"\r\n` +
        `Content-Type: ${file.contentType ?? 'text/csv'}\r\n\r\n`,
      'utf8',
    ),
  );
  chunks.push(typeof file.content === 'string' ? Buffer.from(file.content, 'utf8') : Buffer.from(file.content));
  chunks.push(Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8'));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
