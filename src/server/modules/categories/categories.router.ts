import { createCategorySchema } from '../../../shared/schemas/categories';
import { protectedProcedure, router } from '../../trpc/init';
import { suggestInputSchema } from '../../../shared/schemas/suggest';
import { createCategory, listCategories } from './categories.service';
import { suggestCategories } from './suggestions.service';

export const categoriesRouter = router({
  list: protectedProcedure.query(({ ctx }) => listCategories(ctx.em, ctx.user.id)),
  create: protectedProcedure
    .input(createCategorySchema)
    .mutation(({ ctx, input }) => createCategory(ctx.em, ctx.user.id, input)),
  /** A read, sent as a mutation (POST) because its input may hold 5,000 rows. */
  suggest: protectedProcedure
    .input(suggestInputSchema)
    .mutation(({ ctx, input }) => suggestCategories(ctx.em, ctx.user.id, input)),
});
