import {
  Box,
  Chip,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import type { ImportedRowPreview } from '../../../shared/schemas/import';
import { Amount } from '../../components/transactions/Amount';

/**
 * The rows a dry run will store: a table from 768 px up, and below it one card per row
 * (date, amount, description, status), so a phone never hides a column or cuts an amount.
 */
export function PreviewRows({ rows }: { rows: readonly ImportedRowPreview[] }) {
  const theme = useTheme();
  const narrow = useMediaQuery(theme.breakpoints.down('md'));
  if (narrow) {
    return (
      <Box
        component="ul"
        tabIndex={0}
        aria-label="Rows as they will be stored"
        sx={{ listStyle: 'none', p: 0, m: 0, display: 'grid', gap: 1, maxHeight: 480, overflowY: 'auto' }}
      >
        {rows.map((row) => (
          <Paper
            component="li"
            key={row.line}
            variant="outlined"
            sx={{ p: 1.5, color: row.duplicate ? 'text.secondary' : 'text.primary' }}
          >
            <Stack direction="row" sx={{ justifyContent: 'space-between', gap: 1, flexWrap: 'wrap' }}>
              <Typography variant="body2">{`${row.postDate} · line ${row.line}`}</Typography>
              <Typography variant="body2" sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}>
                <Amount cents={row.amount} />
              </Typography>
            </Stack>
            <Typography sx={{ overflowWrap: 'break-word' }}>{row.description}</Typography>
            <Stack direction="row" spacing={1} sx={{ mt: 0.5, flexWrap: 'wrap', rowGap: 0.5 }}>
              <Chip size="small" variant="outlined" label={row.duplicate ? 'Duplicate' : 'New'} />
              <Chip size="small" variant="outlined" label={row.type} />
              {row.category && (
                <Chip size="small" variant="outlined" label={previewCategory(row)} title={row.categoryReason} />
              )}
            </Stack>
            <CategoryOrigin row={row} />
          </Paper>
        ))}
      </Box>
    );
  }
  return (
    <TableContainer
      sx={{ maxHeight: 360, border: 1, borderColor: 'divider', borderRadius: 1 }}
      tabIndex={0}
      aria-label="Rows to import"
    >
      <Table size="small" stickyHeader aria-label="Rows as they will be stored">
        <TableHead>
          <TableRow>
            <TableCell>Line</TableCell>
            <TableCell>Date</TableCell>
            <TableCell>Description</TableCell>
            <TableCell align="right">Amount</TableCell>
            <TableCell>Category</TableCell>
            <TableCell>Status</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => (
            <TableRow key={row.line} sx={row.duplicate ? { '& td': { color: 'text.secondary' } } : undefined}>
              <TableCell>{row.line}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{row.postDate}</TableCell>
              <TableCell sx={{ overflowWrap: 'break-word' }}>{row.description}</TableCell>
              <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                <Amount cents={row.amount} />
              </TableCell>
              <TableCell title={row.categoryReason}>
                {row.category ? previewCategory(row) : ''}
                <CategoryOrigin row={row} />
              </TableCell>
              <TableCell>
                {row.duplicate ? <Chip size="small" label="Duplicate" variant="outlined" /> : 'New'}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

/** Which rule set the row's category (rules run on every imported row). */
function CategoryOrigin({ row }: { row: ImportedRowPreview }) {
  if (!row.ruleName) return null;
  return (
    <Typography variant="caption" color="text.secondary" sx={{ display: 'block' }}>
      {`by rule '${row.ruleName}'`}
    </Typography>
  );
}

/** A category the file carries is shown as it is; one set by a rule or a suggestion says so. */
const SOURCE_LABEL: Record<string, string> = { rule: 'rule', suggested: 'suggested' };

/** "Groceries (suggested)": the category a row will get and where it comes from. */
function previewCategory(row: ImportedRowPreview): string {
  const source = row.categorySource ? SOURCE_LABEL[row.categorySource] : undefined;
  return source ? `${row.category} (${source})` : (row.category ?? '');
}
