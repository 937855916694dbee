import { z } from 'zod';
import { createCategorySchema, mergeCategorySchema, updateCategorySchema } from '../../../shared/schemas/categories';
import { idSchema } from '../../../shared/schemas/common';
import { protectedProcedure, router } from '../../trpc/init';
import { suggestInputSchema } from '../../../shared/schemas/suggest';
import {
  categoryUsage,
  createCategory,
  deleteCategory,
  listCategories,
  mergeCategory,
  updateCategory,
} from './categories.service';

const byId = z.object({ id: idSchema });
import { suggestCategories } from './suggestions.service';

export const categoriesRouter = router({
  list: protectedProcedure.query(({ ctx }) => listCategories(ctx.em, ctx.user.id)),
  create: protectedProcedure
    .input(createCategorySchema)
    .mutation(({ ctx, input }) => createCategory(ctx.em, ctx.user.id, input)),
  update: protectedProcedure
    .input(byId.extend({ data: updateCategorySchema }))
    .mutation(({ ctx, input }) => updateCategory(ctx.em, ctx.user.id, input.id, input.data)),
  usage: protectedProcedure.input(byId).query(({ ctx, input }) => categoryUsage(ctx.em, ctx.user.id, input.id)),
  merge: protectedProcedure
    .input(byId.extend(mergeCategorySchema.shape))
    .mutation(({ ctx, input }) => mergeCategory(ctx.em, ctx.user.id, input.id, input.into)),
  delete: protectedProcedure
    .input(byId.extend({ reassignTo: idSchema.optional() }))
    .mutation(({ ctx, input }) => deleteCategory(ctx.em, ctx.user.id, input.id, input.reassignTo)),
  /** A read, sent as a mutation (POST) because its input may hold 5,000 rows. */
  suggest: protectedProcedure
    .input(suggestInputSchema)
    .mutation(({ ctx, input }) => suggestCategories(ctx.em, ctx.user.id, input)),
});
