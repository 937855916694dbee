import { z } from 'zod';
import { idSchema } from '../../../shared/schemas/common';
import { historyPageSchema, trashRestoreSchema } from '../../../shared/schemas/history';
import { protectedProcedure, router } from '../../trpc/init';
import { listHistory, redoEntry, undoEntry } from './history.service';
import { emptyTrash, listTrash, restoreFromTrash } from './trash.service';

const byId = z.object({ id: idSchema });

export const historyRouter = router({
  list: protectedProcedure
    .input(historyPageSchema)
    .query(({ ctx, input }) => listHistory(ctx.em, ctx.user.id, input, ctx.services.retention)),
  undo: protectedProcedure
    .input(byId)
    .mutation(({ ctx, input }) => undoEntry(ctx.em, ctx.user.id, input.id, ctx.services.clock.today())),
  redo: protectedProcedure
    .input(byId)
    .mutation(({ ctx, input }) => redoEntry(ctx.em, ctx.user.id, input.id, ctx.services.clock.today())),
  trash: protectedProcedure.query(({ ctx }) => listTrash(ctx.em, ctx.user.id, ctx.services.retention)),
  restore: protectedProcedure
    .input(trashRestoreSchema)
    .mutation(({ ctx, input }) => restoreFromTrash(ctx.em, ctx.user.id, input)),
  emptyTrash: protectedProcedure.mutation(({ ctx }) => emptyTrash(ctx.em, ctx.user.id)),
});
