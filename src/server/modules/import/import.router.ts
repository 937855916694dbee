import { z } from 'zod';
import { AppError } from '../../../shared/errors';
import { idSchema, text } from '../../../shared/schemas/common';
import { importFieldsSchema, importProfileInputSchema } from '../../../shared/schemas/import';
import { protectedProcedure, router, signedInProcedure } from '../../trpc/init';
import { deleteImportProfile, getImportProfile, putImportProfile } from './import-profile.service';
import { importFile } from './import.service';
import { uploadTooLarge } from './upload-limit';

/** The decoded size of base64 text, without decoding it (padding and blanks ignored). */
function base64Size(text: string): number {
  const chars = text.replace(/[\s=]/g, '').length;
  return Math.floor((chars * 3) / 4);
}

const byAccount = z.object({ accountId: idSchema });

/** The same import for tRPC clients (the file travels base64-encoded), and the accounts' import profiles. */
export const importRouter = router({
  // importFile scopes its database steps itself: the file is read and planned without a connection.
  upload: signedInProcedure
    .input(
      importFieldsSchema.extend({
        fileName: text({ max: 255 }).optional(),
        contentBase64: z
          .string({ error: 'file: choose a file to upload' })
          .min(1, 'file: choose a file to upload')
          .regex(/^[A-Za-z0-9+/=_\-\s]*$/, 'must be the file in base64'),
      }),
    )
    .mutation(({ ctx, input }) => {
      // The same limit as POST /api/upload (UPLOAD_LIMIT_BYTES); the JSON body is also bounded by BODY_LIMIT_BYTES.
      if (base64Size(input.contentBase64) > ctx.config.uploadLimitBytes)
        throw new AppError('PAYLOAD_TOO_LARGE', uploadTooLarge(ctx.config.uploadLimitBytes));
      const bytes = new Uint8Array(Buffer.from(input.contentBase64, 'base64'));
      return importFile(ctx.em, ctx.user.id, { ...input, bytes, fileName: input.fileName ?? null });
    }),
  profile: protectedProcedure
    .input(byAccount)
    .query(({ ctx, input }) => getImportProfile(ctx.em, ctx.user.id, input.accountId)),
  saveProfile: protectedProcedure
    .input(byAccount.extend({ profile: importProfileInputSchema }))
    .mutation(({ ctx, input }) => putImportProfile(ctx.em, ctx.user.id, input.accountId, input.profile)),
  deleteProfile: protectedProcedure
    .input(byAccount)
    .mutation(({ ctx, input }) => deleteImportProfile(ctx.em, ctx.user.id, input.accountId)),
});
