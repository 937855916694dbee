/** Bytes to text: UTF-8 (BOM or not), else Windows-1252; binary files are refused. */
export type DecodeResult = { ok: true; text: string; encoding: 'utf-8' | 'utf-8-bom' | 'windows-1252' } | { ok: false; message: string };

function startsWith(bytes: Uint8Array, signature: number[]): boolean {
  return signature.every((b, i) => bytes[i] === b);
}

export function decodeCsvBytes(bytes: Uint8Array): DecodeResult {
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) {
    return { ok: false, message: 'This file is a ZIP archive (an Excel .xlsx file?), not a CSV. Export the statement as CSV and try again.' };
  }
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0])) {
    return { ok: false, message: 'This file is an old Excel (.xls) workbook, not a CSV. Export the statement as CSV and try again.' };
  }
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46])) return { ok: false, message: 'This file is a PDF, not a CSV.' };
  const sample = bytes.subarray(0, 8192);
  if (sample.includes(0)) return { ok: false, message: 'This file is binary, not a CSV text file.' };
  if (startsWith(bytes, [0xef, 0xbb, 0xbf])) {
    return { ok: true, text: new TextDecoder('utf-8').decode(bytes.subarray(3)), encoding: 'utf-8-bom' };
  }
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { ok: true, text: new TextDecoder('windows-1252').decode(bytes), encoding: 'windows-1252' };
  }
}
