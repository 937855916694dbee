import { z } from 'zod';
import { idSchema, text } from '../../../shared/schemas/common';
import { importFieldsSchema, importProfileInputSchema } from '../../../shared/schemas/import';
import { protectedProcedure, router } from '../../trpc/init';
import { deleteImportProfile, getImportProfile, putImportProfile } from './import-profile.service';
import { importFile } from './import.service';

const byAccount = z.object({ accountId: idSchema });

/** The same import for tRPC clients (the file travels base64-encoded), and the accounts' import profiles. */
export const importRouter = router({
  upload: protectedProcedure
    .input(
      importFieldsSchema.extend({
        fileName: text({ max: 255 }).optional(),
        contentBase64: z
          .string({ error: 'file: choose a file to upload' })
          .min(1, 'file: choose a file to upload')
          .max(20 * 1024 * 1024)
          .regex(/^[A-Za-z0-9+/=_\-\s]*$/, 'must be the file in base64'),
      }),
    )
    .mutation(({ ctx, input }) =>
      importFile(ctx.em, ctx.user.id, { ...input, bytes: new Uint8Array(Buffer.from(input.contentBase64, 'base64')), fileName: input.fileName ?? null }),
    ),
  profile: protectedProcedure.input(byAccount).query(({ ctx, input }) => getImportProfile(ctx.em, ctx.user.id, input.accountId)),
  saveProfile: protectedProcedure
    .input(byAccount.extend({ profile: importProfileInputSchema }))
    .mutation(({ ctx, input }) => putImportProfile(ctx.em, ctx.user.id, input.accountId, input.profile)),
  deleteProfile: protectedProcedure.input(byAccount).mutation(({ ctx, input }) => deleteImportProfile(ctx.em, ctx.user.id, input.accountId)),
});
