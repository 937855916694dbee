import { Typography } from '@mui/material';
import { keepPreviousData } from '@tanstack/react-query';
import { useDeferredValue } from 'react';
import type { RuleCondition } from '../../../shared/rules';
import { trpc } from '../../lib/trpc';

/**
 * "Matches N of your transactions" for the conditions being typed. The query key is the deferred
 * conditions, so typing fast asks the server for what settles rather than every keystroke's
 * render, and the last answer stays shown while the next one loads.
 */
export function MatchCount({ conditions }: { conditions: RuleCondition[] | null }) {
  const deferred = useDeferredValue(conditions);
  const count = trpc.rules.countMatches.useQuery(
    { conditions: deferred ?? [] },
    { enabled: deferred !== null, placeholderData: keepPreviousData, staleTime: 5_000 },
  );
  let text = 'Complete the conditions to see how many transactions they match.';
  if (deferred !== null && count.data)
    text = `Matches ${count.data.matched.toLocaleString()} of your ${count.data.total.toLocaleString()} transactions`;
  else if (deferred !== null && count.isError) text = 'Could not count the matching transactions.';
  else if (deferred !== null) text = 'Counting matching transactions...';
  return (
    <Typography role="status" aria-live="polite" data-testid="rule-match-count" color="text.secondary">
      {text}
      {deferred !== null && count.data && count.data.sample.length > 0 && (
        <Typography component="span" variant="body2" sx={{ display: 'block' }}>
          {`e.g. ${count.data.sample.map((s) => s.description).join(' · ')}`}
        </Typography>
      )}
    </Typography>
  );
}
