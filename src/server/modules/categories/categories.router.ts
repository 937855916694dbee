import { createCategorySchema } from '../../../shared/schemas/categories';
import { protectedProcedure, router } from '../../trpc/init';
import { createCategory, listCategories } from './categories.service';

export const categoriesRouter = router({
  list: protectedProcedure.query(({ ctx }) => listCategories(ctx.em, ctx.user.id)),
  create: protectedProcedure.input(createCategorySchema).mutation(({ ctx, input }) => createCategory(ctx.em, ctx.user.id, input)),
});
