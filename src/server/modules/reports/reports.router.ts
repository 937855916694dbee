import { monthlyReportInputSchema, payeeReportInputSchema } from '../../../shared/schemas/reports';
import { protectedProcedure, router } from '../../trpc/init';
import { monthlyReport, payeeReport } from './reports.service';

export const reportsRouter = router({
  monthly: protectedProcedure
    .input(monthlyReportInputSchema)
    .query(({ ctx, input }) => monthlyReport(ctx.em, ctx.user.id, input)),
  payees: protectedProcedure
    .input(payeeReportInputSchema)
    .query(({ ctx, input }) => payeeReport(ctx.em, ctx.user.id, input)),
});
