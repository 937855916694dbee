import { useRef } from 'react';
import { withAssigned } from '../../../shared/plan/view';
import type { PlanDto } from '../../../shared/schemas/plan';
import { refusalMessage, trpc } from '../../lib/trpc';

/**
 * The month's plan answer put in the cache as the server gave it, and every other month read again
 * (a change in one month moves the carryover and To Assign of the months after it).
 */
function usePlanAnswer(month: string) {
  const utils = trpc.useUtils();
  return async (answer: PlanDto) => {
    utils.plan.get.setData({ month }, answer);
    await utils.plan.get.invalidate(undefined, { predicate: (query) => !isMonthQuery(query.queryKey, month) });
  };
}

/** True for the cache entry of `plan.get({ month })`. */
function isMonthQuery(key: readonly unknown[], month: string): boolean {
  const input = (key[1] as { input?: { month?: string } } | undefined)?.input;
  return input?.month === month;
}

/**
 * Sets a category's assigned amount: the screen shows the new figures at once and puts the old ones
 * back, with the server's reason, when the change is refused.
 */
export function useSetAssigned(month: string, onRefused: (message: string) => void) {
  const utils = trpc.useUtils();
  const settle = usePlanAnswer(month);
  // Edits made in quick succession: only the last answer may replace what the screen shows.
  const pending = useRef(0);
  return trpc.plan.setAssigned.useMutation({
    onMutate: async ({ category, amount }) => {
      pending.current += 1;
      await utils.plan.get.cancel({ month });
      const before = utils.plan.get.getData({ month });
      if (before && typeof category === 'number')
        utils.plan.get.setData({ month }, withAssigned(before, category, amount));
      return { before };
    },
    onError: (failure, _input, context) => {
      if (context?.before) utils.plan.get.setData({ month }, context.before);
      onRefused(refusalMessage(failure, 'Failed to save the assigned amount'));
    },
    onSuccess: async (answer) => {
      if (pending.current === 1) await settle(answer);
    },
    onSettled: () => {
      pending.current -= 1;
    },
  });
}

/** Move, hold and fill: the dialog waits for the server's answer, which then replaces the month. */
export function usePlanActions(month: string) {
  const settle = usePlanAnswer(month);
  const onSuccess = (answer: PlanDto) => settle(answer);
  return {
    move: trpc.plan.move.useMutation({ onSuccess }),
    hold: trpc.plan.hold.useMutation({ onSuccess }),
    fill: trpc.plan.fill.useMutation({ onSuccess }),
  };
}
