import EditIcon from '@mui/icons-material/Tune';
import { ButtonBase, Paper, Typography } from '@mui/material';
import { useEffect, useId, useRef } from 'react';
import type { DatePreset } from '../../../shared/dates/presets';
import { filterSummary } from './filterSummary';
import { SearchFilters } from './SearchFilters';
import type { useTransactionSearch } from './useTransactionSearch';

interface FilterPanelProps {
  search: ReturnType<typeof useTransactionSearch>;
  categoryOptions: string[];
  accountNames: string[];
  /** How many transactions the search shown found; null while it runs or before it has run. */
  found: number | null;
  preset: DatePreset | null;
}

/**
 * The filters: once a search has run they fold into one line that says what was searched and how many were
 * found ("This month · Groceries · 191 found"), so the rows start near the top of a phone's screen; a click,
 * tap, Enter or Space opens the form again. Search folds it; whether it is open is kept in the URL.
 */
export function FilterPanel({ search, categoryOptions, accountNames, found, preset }: FilterPanelProps) {
  const formId = useId();
  const summaryRef = useRef<HTMLButtonElement>(null);
  const formRef = useRef<HTMLDivElement>(null);
  // Folded only over a search that has answered: until then (or when it failed) the form is what there is to see.
  const canFold = search.filters !== null && search.results !== null;
  const open = search.filtersOpen || !canFold;
  const moveFocusOnToggle = useFocusOnToggle(open, summaryRef, formRef);

  if (!open) {
    return (
      <Paper variant="outlined" sx={{ mb: 1.5 }}>
        <ButtonBase
          ref={summaryRef}
          aria-expanded={false}
          aria-controls={formId}
          aria-label={`Filters: ${filterSummary(search.form, search.extras, search.today, found)}. Edit filters`}
          onClick={() => {
            moveFocusOnToggle();
            search.setFiltersOpen(true);
          }}
          sx={{
            width: '100%',
            justifyContent: 'flex-start',
            gap: 1,
            px: 2,
            py: 1.25,
            borderRadius: 1,
            textAlign: 'left',
          }}
        >
          <EditIcon fontSize="small" color="primary" aria-hidden />
          <Typography variant="body2" sx={{ flexGrow: 1, fontWeight: 600, overflowWrap: 'anywhere' }}>
            {filterSummary(search.form, search.extras, search.today, found)}
          </Typography>
          <Typography variant="body2" color="primary" sx={{ flexShrink: 0 }}>
            Edit
          </Typography>
        </ButtonBase>
      </Paper>
    );
  }
  return (
    <div ref={formRef}>
      <SearchFilters
        id={formId}
        form={search.form}
        error={search.formError}
        categoryOptions={categoryOptions}
        accountNames={accountNames}
        searching={search.searching}
        preset={preset}
        onPreset={search.choosePreset}
        onChange={search.change}
        onSearch={() => {
          moveFocusOnToggle();
          search.run(false, true);
        }}
        onClear={search.clear}
        onHide={
          canFold
            ? () => {
                moveFocusOnToggle();
                search.setFiltersOpen(false);
              }
            : undefined
        }
      />
    </div>
  );
}

/**
 * Opening the form puts focus on its first control, folding it (Search, Hide filters) on the summary line: the
 * control that was used is gone, and focus would otherwise fall to the page body. Only a person's own toggle
 * moves focus; the fold of a first search that answers leaves focus where it is.
 */
function useFocusOnToggle(
  open: boolean,
  summaryRef: React.RefObject<HTMLButtonElement | null>,
  formRef: React.RefObject<HTMLDivElement | null>,
) {
  const asked = useRef(false);
  const wasOpen = useRef(open);
  useEffect(() => {
    if (open === wasOpen.current) return;
    wasOpen.current = open;
    if (!asked.current) return;
    asked.current = false;
    if (open) formRef.current?.querySelector<HTMLElement>('button, input')?.focus();
    else summaryRef.current?.focus();
  }, [open, summaryRef, formRef]);
  return () => {
    asked.current = true;
  };
}
