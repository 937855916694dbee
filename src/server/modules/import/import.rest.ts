import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../../shared/errors';
import { IMPORT_FIELD_NAMES, importFieldsSchema } from '../../../shared/schemas/import';
import { importAnswer } from '../../http/answers';
import { restRoute, type RestRoute } from '../../http/rest-route';
import { parseInput } from '../../http/validate';
import { importFile } from './import.service';
import { uploadTooLarge } from './upload-limit';

interface UploadParts {
  bytes: Uint8Array | null;
  fileName: string | null;
  fields: Record<string, string>;
}

const FIELDS_TEXT = `file, ${IMPORT_FIELD_NAMES.join(', ')}`;

/** The multipart plugin's refusals, in words that say what to change (never "too large" for a count). */
function uploadError(error: unknown, limitBytes: number): AppError {
  const failure = error as { code?: string; statusCode?: number; message?: string };
  switch (failure.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', uploadTooLarge(limitBytes));
    case 'FST_FILES_LIMIT':
      return new AppError(
        'BAD_REQUEST',
        "Send exactly one file, in the field 'file': this upload holds more than one file",
      );
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new AppError('BAD_REQUEST', `This upload holds too many fields; it takes ${FIELDS_TEXT}`);
    case 'FST_PROTO_VIOLATION':
      return new AppError('BAD_REQUEST', `Unknown field name; the upload takes ${FIELDS_TEXT}`);
    default:
      if (failure.statusCode === 413) return new AppError('PAYLOAD_TOO_LARGE', uploadTooLarge(limitBytes));
      // busboy's own errors (no status): a body that is not well-formed multipart.
      return new AppError(
        'BAD_REQUEST',
        `The upload is not a well-formed multipart/form-data body${failure.message ? ` (${failure.message})` : ''}`,
      );
  }
}

/**
 * The file's bytes, copied as they arrive into one buffer sized by the request's length (which
 * bounds the file), so a large upload is held once rather than as its chunks plus their
 * concatenation; without a usable length, the chunks are joined at the end. Nothing else keeps
 * the bytes: the import lets go of them once decoded.
 */
async function readFilePart(
  file: AsyncIterable<Buffer>,
  contentLength: number,
  limitBytes: number,
): Promise<Uint8Array> {
  const capacity = Number.isSafeInteger(contentLength) && contentLength > 0 ? Math.min(contentLength, limitBytes) : 0;
  let buffer = capacity > 0 ? Buffer.allocUnsafe(capacity) : null;
  let length = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of file) {
    if (buffer && length + chunk.length <= buffer.length) {
      chunk.copy(buffer, length);
      length += chunk.length;
      continue;
    }
    if (buffer) {
      // More than the length announced: keep what was copied as the first chunk.
      chunks.push(buffer.subarray(0, length));
      buffer = null;
    }
    chunks.push(chunk);
  }
  const bytes = buffer ? buffer.subarray(0, length) : Buffer.concat(chunks);
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Reads the whole multipart body: one file in `file`, the known fields once each. A file
 * over the limit is a 413, never silently truncated; anything else unexpected is a 400 that
 * says what was wrong.
 */
export async function readUpload(
  request: FastifyRequest,
  limitBytes: number,
  fieldNames: readonly string[] = IMPORT_FIELD_NAMES,
): Promise<UploadParts> {
  if (!request.isMultipart()) {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      fieldNames.length > 0
        ? 'Send the file as multipart/form-data with fields file, account and transactionType'
        : "Send the file as multipart/form-data in the field 'file'",
    );
  }
  const out: UploadParts = { bytes: null, fileName: null, fields: {} };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          part.file.resume();
          throw new AppError(
            'BAD_REQUEST',
            `Unexpected file in the field '${part.fieldname.slice(0, 40)}': send the statement in the field 'file'`,
          );
        }
        if (out.bytes) {
          part.file.resume();
          throw new AppError(
            'BAD_REQUEST',
            "Send exactly one file, in the field 'file': this upload holds more than one file",
          );
        }
        out.bytes = await readFilePart(part.file, Number(request.headers['content-length'] ?? 0), limitBytes);
        if (part.file.truncated) throw new AppError('PAYLOAD_TOO_LARGE', uploadTooLarge(limitBytes));
        out.fileName = part.filename || null;
      } else {
        const name = part.fieldname;
        if (!fieldNames.includes(name))
          throw new AppError('BAD_REQUEST', `Unknown field '${name.slice(0, 40)}'; the upload takes ${FIELDS_TEXT}`);
        if (name in out.fields) throw new AppError('BAD_REQUEST', `The field '${name}' is sent twice; send it once`);
        if (part.valueTruncated) throw new AppError('BAD_REQUEST', `The field '${name}' is too long`);
        // A field sent as JSON (content-type application/json) arrives parsed; the upload's fields are text.
        const value: unknown = part.value;
        if (value !== undefined && typeof value !== 'string')
          throw new AppError('BAD_REQUEST', `The field '${name}' must be plain text`);
        out.fields[name] = value ?? '';
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw uploadError(error, limitBytes);
  }
  return out;
}

/** POST /api/upload: multipart file, account, transactionType (+ dateFormat, flipAmounts, dryRun, mapping). */
export const uploadRoute: RestRoute = restRoute({
  method: 'POST',
  url: '/upload',
  tag: 'Import',
  summary:
    'Import a bank file (CSV, OFX/QFX, QIF or CAMT.053, told apart by content) into an account as one batch (multipart: file, account, optional transactionType (default auto), dateFormat, flipAmounts, dryRun, mapping as JSON, statements as JSON: where each statement of a file of several accounts goes)',
  body: importFieldsSchema.extend({
    file: z.string().describe('the statement file (binary)'),
    mapping: z
      .string()
      .optional()
      .describe(
        'JSON {"header": true|false, "date": 0, "description": [1, 3], "amount": 2} or with "debit"/"credit" instead of "amount"; optional "category", "indicator", "currency", "dateFormat"',
      ),
    statements: z
      .string()
      .optional()
      .describe(
        'JSON [{"statement": 0, "account": "Savings", "type": "savings"}, {"statement": 1, "account": null}]: a statement (its index in the dry run\'s statements) into an account (created when new) or skipped (null); others go into `account`',
      ),
  }),
  bodyType: 'multipart/form-data',
  status: 201,
  // importFile scopes its database steps itself: the file is read and planned without a connection.
  scopesItself: true,
  // A dry run, or nothing new to import: 200.
  statusOf: (result: { batchId: string | null }) => (result.batchId ? 201 : 200),
  answer:
    '{ message, batchId, imported, duplicates, skipped, warnings, attention } (dryRun, or nothing new to import: 200, with the full preview on a dry run, and its statements for a file of several accounts); with statements, batches per account; 422 with needsMapping and sample when the columns need a mapping',
  output: importAnswer,
  refusals: [200, 422],
  handler: async ({ em, userId, request }) => {
    const limitBytes = request.server.config.uploadLimitBytes;
    const upload = await readUpload(request, limitBytes);
    const fields = parseInput(importFieldsSchema, upload.fields);
    if (!upload.bytes)
      throw new AppError('BAD_REQUEST', 'file: choose a file to upload (CSV, OFX, QFX, QIF or CAMT.053)');
    const input = { ...fields, bytes: upload.bytes, fileName: upload.fileName };
    // The import lets go of the bytes once it has decoded them: nothing here keeps them.
    upload.bytes = null;
    return importFile(em, userId, input);
  },
});
