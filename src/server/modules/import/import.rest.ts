import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../../shared/errors';
import { importFieldsSchema } from '../../../shared/schemas/import';
import { parseInput } from '../../http/validate';
import { importCsv } from './import.service';

interface UploadParts {
  bytes: Uint8Array | null;
  fileName: string | null;
  fields: Record<string, string>;
}

/** Reads the whole multipart body; a file over the limit is a 413, never silently truncated. */
async function readUpload(request: FastifyRequest, limitBytes: number): Promise<UploadParts> {
  if (!request.isMultipart()) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the CSV as multipart/form-data with fields file, account and transactionType');
  }
  const out: UploadParts = { bytes: null, fileName: null, fields: {} };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const buffer = await part.toBuffer();
        if (part.file.truncated) throw new AppError('PAYLOAD_TOO_LARGE', tooLarge(limitBytes));
        if (part.fieldname === 'file') {
          out.bytes = new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
          out.fileName = part.filename || null;
        }
      } else {
        out.fields[part.fieldname] = String(part.value ?? '');
      }
    }
  } catch (error) {
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 413) throw new AppError('PAYLOAD_TOO_LARGE', tooLarge(limitBytes));
    throw error;
  }
  return out;
}

function tooLarge(limitBytes: number): string {
  return `The file is larger than the upload limit of ${(limitBytes / 1024 / 1024).toFixed(limitBytes % (1024 * 1024) === 0 ? 0 : 1)} MB`;
}

/** POST /api/upload: multipart file, account, transactionType (+ dateFormat, flipAmounts, dryRun). */
export async function importRest(app: FastifyInstance): Promise<void> {
  app.post('/upload', async (request, reply) => {
    const upload = await readUpload(request, app.config.uploadLimitBytes);
    const fields = parseInput(importFieldsSchema, upload.fields);
    if (!upload.bytes) throw new AppError('BAD_REQUEST', 'file: choose a CSV file to upload');
    const result = await importCsv(request.em, request.user.id, { ...fields, bytes: upload.bytes, fileName: upload.fileName });
    return reply.status(fields.dryRun || !result.batchId ? 200 : 201).send(result);
  });
}
