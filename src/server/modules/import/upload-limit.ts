/** The refusal of a file over UPLOAD_LIMIT_BYTES, for POST /api/upload and tRPC imports.upload alike. */
export function uploadTooLarge(limitBytes: number): string {
  return `The file is larger than the upload limit of ${(limitBytes / 1024 / 1024).toFixed(limitBytes % (1024 * 1024) === 0 ? 0 : 1)} MB`;
}
