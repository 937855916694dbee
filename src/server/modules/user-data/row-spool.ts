import { randomUUID } from 'node:crypto';
import { mkdir, open, unlink, type FileHandle } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * Text gathered before it is written out, and read back at once: large enough for few calls, and small enough that
 * a chunk (and the rows parsed from it) is garbage before the young generation is collected twice, so it is never
 * copied into the old one.
 */
const SPOOL_CHUNK_BYTES = 64 * 1024;
const NEWLINE = 0x0a;

/**
 * Rows kept on disk while a large document is read, one JSON text a line, and read back in the order they came,
 * so the process holds a chunk of them at a time however many the document has. The file is made readable by the
 * server alone and unlinked as soon as it is open (where the system allows it), so nothing is left behind even when
 * the process dies half-way.
 */
export class RowSpool {
  private pending: string[] = [];
  private pendingLength = 0;
  private written = 0;
  private unlinked = false;

  private constructor(
    private readonly handle: FileHandle,
    private readonly file: string,
  ) {}

  /** A spool in `dir` (made private to the server when missing), else in the system's temporary folder. */
  static async create(dir: string): Promise<RowSpool> {
    let handle: FileHandle;
    let file = path.join(dir, `restore-${randomUUID()}.spool`);
    try {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      handle = await open(file, 'wx+', 0o600);
    } catch {
      // A data folder the server cannot write (PostgreSQL with a configured secret needs none).
      file = path.join(os.tmpdir(), path.basename(file));
      handle = await open(file, 'wx+', 0o600);
    }
    const spool = new RowSpool(handle, file);
    await spool.unlink().catch(() => undefined);
    return spool;
  }

  /** Keeps a row (in memory until a chunk's worth is gathered: call `flushIfFull` between slices of work). */
  add(row: unknown): void {
    const line = JSON.stringify(row);
    this.pending.push(line);
    this.pendingLength += line.length + 1;
  }

  /** Writes out what is gathered once it is a chunk's worth, so the rows held in memory stay bounded. */
  async flushIfFull(): Promise<void> {
    if (this.pendingLength >= SPOOL_CHUNK_BYTES) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const text = `${this.pending.join('\n')}\n`;
    this.pending = [];
    this.pendingLength = 0;
    const { bytesWritten } = await this.handle.write(text, this.written, 'utf8');
    this.written += bytesWritten;
  }

  /** The rows in the order they were added, `count` at a time (the last slice may be shorter). */
  async *slices<T>(count: number): AsyncGenerator<T[]> {
    await this.flush();
    let slice: T[] = [];
    for await (const line of this.lines()) {
      slice.push(JSON.parse(line) as T);
      if (slice.length === count) {
        yield slice;
        slice = [];
      }
    }
    if (slice.length > 0) yield slice;
  }

  private async *lines(): AsyncGenerator<string> {
    let carried = Buffer.alloc(0);
    for (let at = 0; at < this.written;) {
      const chunk = Buffer.alloc(Math.min(SPOOL_CHUNK_BYTES, this.written - at));
      const { bytesRead } = await this.handle.read(chunk, 0, chunk.byteLength, at);
      if (bytesRead === 0) throw new Error('the restore spool ended early');
      at += bytesRead;
      const read = chunk.subarray(0, bytesRead);
      const bytes = carried.byteLength > 0 ? Buffer.concat([carried, read]) : read;
      const end = bytes.lastIndexOf(NEWLINE);
      carried = Buffer.from(bytes.subarray(end + 1));
      if (end < 0) continue;
      const text = bytes.toString('utf8', 0, end);
      yield* text.split('\n');
    }
  }

  private async unlink(): Promise<void> {
    if (this.unlinked) return;
    await unlink(this.file);
    this.unlinked = true;
  }

  async close(): Promise<void> {
    await this.handle.close();
    await this.unlink().catch(() => undefined);
  }
}
