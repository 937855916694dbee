import { z } from 'zod';
import {
  createScheduleSchema,
  occurrencePickSchema,
  occurrenceRangeSchema,
  updateScheduleSchema,
  upcomingInputSchema,
} from '../../../shared/schedules';
import { idSchema } from '../../../shared/schemas/common';
import { protectedProcedure, router } from '../../trpc/init';
import {
  createSchedule,
  deleteSchedule,
  getSchedule,
  listOccurrences,
  listSchedules,
  postOccurrenceNow,
  scheduleSuggestions,
  skipOccurrence,
  upcomingOccurrences,
  updateSchedule,
} from './schedules.service';

const byId = z.object({ id: idSchema });

export const schedulesRouter = router({
  list: protectedProcedure.query(({ ctx }) => listSchedules(ctx.em, ctx.user.id, ctx.services.clock.today())),
  get: protectedProcedure
    .input(byId)
    .query(({ ctx, input }) => getSchedule(ctx.em, ctx.user.id, input.id, ctx.services.clock.today())),
  create: protectedProcedure
    .input(createScheduleSchema)
    .mutation(({ ctx, input }) => createSchedule(ctx.em, ctx.user.id, input, ctx.services.clock.today())),
  update: protectedProcedure
    .input(byId.extend({ data: updateScheduleSchema }))
    .mutation(({ ctx, input }) =>
      updateSchedule(ctx.em, ctx.user.id, input.id, input.data, ctx.services.clock.today()),
    ),
  delete: protectedProcedure.input(byId).mutation(({ ctx, input }) => deleteSchedule(ctx.em, ctx.user.id, input.id)),
  skip: protectedProcedure
    .input(byId.extend(occurrencePickSchema.shape))
    .mutation(({ ctx, input }) =>
      skipOccurrence(ctx.em, ctx.user.id, input.id, { date: input.date }, ctx.services.clock.today()),
    ),
  postNow: protectedProcedure
    .input(byId.extend(occurrencePickSchema.shape))
    .mutation(({ ctx, input }) =>
      postOccurrenceNow(ctx.em, ctx.user.id, input.id, { date: input.date }, ctx.services.clock.today()),
    ),
  upcoming: protectedProcedure
    .input(upcomingInputSchema)
    .query(({ ctx, input }) => upcomingOccurrences(ctx.em, ctx.user.id, input, ctx.services.clock.today())),
  occurrences: protectedProcedure
    .input(occurrenceRangeSchema)
    .query(({ ctx, input }) => listOccurrences(ctx.em, ctx.user.id, input, ctx.services.clock.today())),
  suggestions: protectedProcedure.query(({ ctx }) =>
    scheduleSuggestions(ctx.em, ctx.user.id, ctx.services.clock.today()),
  ),
});
