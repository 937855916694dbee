import { runSteps, type Steps } from './steps';

/** Bytes to text: UTF-8 (BOM or not), else Windows-1252; binary files are refused. */
export type DecodeResult =
  | {
      ok: true;
      text: string;
      encoding: 'utf-8' | 'utf-8-bom' | 'windows-1252';
      /** Windows-1252: the line of the first byte UTF-8 cannot read (the reason the file was not read as UTF-8). */
      invalidLine?: number;
    }
  | { ok: false; message: string };

/** Offset of the first byte that does not continue a well-formed UTF-8 sequence, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] ?? 0;
    const length =
      b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0) return i;
    for (let k = 1; k < length; k += 1) if (((bytes[i + k] ?? 0) & 0xc0) !== 0x80) return i;
    i += length;
  }
  return -1;
}

function lineOfOffset(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let at = bytes.indexOf(0x0a); at >= 0 && at < offset; at = bytes.indexOf(0x0a, at + 1)) line += 1;
  return line;
}

function startsWith(bytes: Uint8Array, signature: number[]): boolean {
  return signature.every((b, i) => bytes[i] === b);
}

/** C0 controls but tab, line breaks, vertical tab and form feed; and DEL. */
function isControlByte(b: number): boolean {
  return (b < 0x20 && (b < 0x09 || b > 0x0d)) || b === 0x7f;
}

/**
 * A NUL marks a binary file unless it is a stray in text: a text file with a control byte in a row or two is read,
 * and the reader skips those rows naming them. Binary data (images, databases, compressed bytes) holds far more.
 */
export function looksBinary(sample: Uint8Array): boolean {
  if (!sample.includes(0)) return false;
  let controls = 0;
  for (const b of sample) if (isControlByte(b)) controls += 1;
  return controls * 20 > sample.length;
}

export function decodeCsvBytes(bytes: Uint8Array): DecodeResult {
  return runSteps(decodeBytesSteps(bytes));
}

/** `decodeCsvBytes` as steps: a large Windows-1252 file is decoded a megabyte at a time. */
export function* decodeBytesSteps(bytes: Uint8Array): Steps<DecodeResult> {
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) {
    return {
      ok: false,
      message:
        'This file is a ZIP archive (an Excel .xlsx file?), not a CSV. Export the statement as CSV and try again.',
    };
  }
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0])) {
    return {
      ok: false,
      message: 'This file is an old Excel (.xls) workbook, not a CSV. Export the statement as CSV and try again.',
    };
  }
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46])) return { ok: false, message: 'This file is a PDF, not a CSV.' };
  if (looksBinary(bytes.subarray(0, 8192))) {
    return { ok: false, message: 'This file is binary, not a CSV or statement text file.' };
  }
  if (startsWith(bytes, [0xef, 0xbb, 0xbf])) {
    return { ok: true, text: new TextDecoder('utf-8').decode(bytes.subarray(3)), encoding: 'utf-8-bom' };
  }
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    const parts: string[] = [];
    const STEP = 1024 * 1024;
    for (let start = 0; start < bytes.length; start += STEP) {
      parts.push(decodeWindows1252(bytes.subarray(start, start + STEP)));
      yield;
    }
    const invalid = firstInvalidUtf8(bytes);
    const invalidLine = invalid >= 0 ? lineOfOffset(bytes, invalid) : undefined;
    return { ok: true, text: parts.join(''), encoding: 'windows-1252', ...(invalidLine ? { invalidLine } : {}) };
  }
}

/** 0x80-0x9F of Windows-1252 (undefined bytes map to themselves); the rest equals Latin-1. */
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

/** Done by hand: some runtimes decode the 'windows-1252' label as plain Latin-1. */
export function decodeWindows1252(bytes: Uint8Array): string {
  const parts: string[] = [];
  const CHUNK = 8192;
  for (let start = 0; start < bytes.length; start += CHUNK) {
    const codes = new Array<number>(Math.min(CHUNK, bytes.length - start));
    for (let i = 0; i < codes.length; i += 1) {
      const b = bytes[start + i];
      if (b === undefined) break; // start + i < bytes.length by the array's length above
      codes[i] = b >= 0x80 && b <= 0x9f ? (CP1252_HIGH[b - 0x80] ?? b) : b;
    }
    parts.push(String.fromCharCode(...codes));
  }
  return parts.join('');
}
