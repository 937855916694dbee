import { z } from 'zod';
import { text } from '../../../shared/schemas/common';
import { importFieldsSchema } from '../../../shared/schemas/import';
import { protectedProcedure, router } from '../../trpc/init';
import { importCsv } from './import.service';

/** The same import for tRPC clients: the file travels base64-encoded. */
export const importRouter = router({
  upload: protectedProcedure
    .input(
      importFieldsSchema.extend({
        fileName: text({ max: 255 }).optional(),
        contentBase64: z
          .string({ error: 'file: choose a CSV file to upload' })
          .min(1, 'file: choose a CSV file to upload')
          .max(20 * 1024 * 1024)
          .regex(/^[A-Za-z0-9+/=_\-\s]*$/, 'must be the file in base64'),
      }),
    )
    .mutation(({ ctx, input }) =>
      importCsv(ctx.em, ctx.user.id, { ...input, bytes: new Uint8Array(Buffer.from(input.contentBase64, 'base64')), fileName: input.fileName ?? null }),
    ),
});
