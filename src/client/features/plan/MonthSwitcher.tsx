import ChevronLeftIcon from '@mui/icons-material/ChevronLeft';
import ChevronRightIcon from '@mui/icons-material/ChevronRight';
import { Stack, Typography } from '@mui/material';
import { useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { monthTitle, neighbourMonths } from '../../../shared/plan/view';
import { ButtonLink } from '../../components/RouterLinks';

/** True for keys typed into a field or a list box, where they belong to the field. */
function inField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) ||
    target.closest('[role="listbox"], [role="dialog"]') !== null
  );
}

/**
 * The month shown, with links to the months before and after; "[" and "]" anywhere outside a field
 * go to them too.
 */
export function MonthSwitcher({ month, current }: { month: string; current: string }) {
  const { previous, next } = neighbourMonths(month);
  const navigate = useNavigate();
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (event.ctrlKey || event.metaKey || event.altKey || inField(event.target)) return;
      if (event.key !== '[' && event.key !== ']') return;
      event.preventDefault();
      void navigate({ to: '/plan/$month', params: { month: event.key === '[' ? previous : next } });
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [navigate, previous, next]);

  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', mb: 2 }}>
      <ButtonLink
        to="/plan/$month"
        params={{ month: previous }}
        variant="outlined"
        size="small"
        startIcon={<ChevronLeftIcon />}
        aria-label={`Previous month, ${monthTitle(previous)}`}
        aria-keyshortcuts="["
      >
        Previous
      </ButtonLink>
      <Typography variant="h2" component="p" aria-live="polite" sx={{ minWidth: { sm: 200 }, textAlign: 'center' }}>
        {monthTitle(month)}
      </Typography>
      <ButtonLink
        to="/plan/$month"
        params={{ month: next }}
        variant="outlined"
        size="small"
        endIcon={<ChevronRightIcon />}
        aria-label={`Next month, ${monthTitle(next)}`}
        aria-keyshortcuts="]"
      >
        Next
      </ButtonLink>
      {month !== current && (
        <ButtonLink to="/plan" size="small">
          This month
        </ButtonLink>
      )}
    </Stack>
  );
}
