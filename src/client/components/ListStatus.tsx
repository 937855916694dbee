import { Alert, Box, CircularProgress, Typography } from '@mui/material';

interface ListStatusProps {
  /** The list's query (TanStack Query's flags). */
  query: { isLoading: boolean; isError: boolean; isSuccess: boolean };
  empty: boolean;
  /** Names the spinner, e.g. 'Loading rules'. */
  loadingLabel: string;
  /** e.g. 'Failed to fetch rules'. */
  errorText: string;
  /** What an empty list says (and what to do about it). */
  emptyText: string;
}

/** What a list on a Paper shows before or instead of its rows: a spinner while loading, a failed fetch, or its empty text. */
export function ListStatus({ query, empty, loadingLabel, errorText, emptyText }: ListStatusProps) {
  return (
    <>
      {query.isLoading && (
        <Box sx={{ p: 3, display: 'flex', justifyContent: 'center' }}>
          <CircularProgress aria-label={loadingLabel} />
        </Box>
      )}
      {query.isError && (
        <Alert severity="error" role="alert">
          {errorText}
        </Alert>
      )}
      {query.isSuccess && empty && (
        <Typography sx={{ p: 3 }} color="text.secondary">
          {emptyText}
        </Typography>
      )}
    </>
  );
}
