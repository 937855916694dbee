import {
  Box,
  Button,
  LinearProgress,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { monthRange } from '../../../shared/plan/months';
import { availableTone, planGroups, targetProgress } from '../../../shared/plan/view';
import type { PlanCategoryDto } from '../../../shared/schemas/plan';
import { TextLink } from '../../components/RouterLinks';
import { AssignedInput } from './AssignedInput';
import { FIGURE_SX, toneSx } from './planStyles';
import { usePlanMoney } from './usePlanMoney';

interface PlanCategoriesProps {
  month: string;
  title: string;
  categories: readonly PlanCategoryDto[];
  onAssign: (row: PlanCategoryDto, cents: number) => void;
  onCover: (row: PlanCategoryDto) => void;
}

/** Narrower cells on a phone, so three columns fit without sideways scrolling. */
const TABLE_SX = { tableLayout: 'fixed', width: '100%', '& .MuiTableCell-root': { px: { xs: 1, sm: 2 } } } as const;

/**
 * The month's expense categories under their envelopes: Assigned (edited in place), Activity (a link to
 * the month's transactions of the category) and Available, coloured by how it stands.
 */
export function PlanCategories({ month, title, categories, onAssign, onCover }: PlanCategoriesProps) {
  // On a phone Activity goes under the category's name instead of a column of its own.
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  return (
    <Table size="small" aria-label={`Categories in ${title}`} sx={TABLE_SX}>
      <TableHead>
        <TableRow>
          <TableCell>Category</TableCell>
          <TableCell align="right" sx={{ width: { xs: 112, sm: 150 } }}>
            Assigned
          </TableCell>
          {!phone && (
            <TableCell align="right" sx={{ width: 130 }}>
              Activity
            </TableCell>
          )}
          <TableCell align="right" sx={{ width: { xs: 104, sm: 150 } }}>
            Available
          </TableCell>
        </TableRow>
      </TableHead>
      {planGroups(categories).map((group) => (
        <TableBody key={group.name}>
          <TableRow>
            <TableCell
              component="th"
              scope="colgroup"
              colSpan={phone ? 3 : 4}
              sx={{ bgcolor: 'action.hover', fontWeight: 600 }}
            >
              {group.name}
            </TableCell>
          </TableRow>
          {group.categories.map((row) => (
            <CategoryRow
              key={row.category}
              month={month}
              row={row}
              phone={phone}
              onAssign={onAssign}
              onCover={onCover}
            />
          ))}
        </TableBody>
      ))}
    </Table>
  );
}

interface CategoryRowProps {
  month: string;
  row: PlanCategoryDto;
  phone: boolean;
  onAssign: (row: PlanCategoryDto, cents: number) => void;
  onCover: (row: PlanCategoryDto) => void;
}

function CategoryRow({ month, row, phone, onAssign, onCover }: CategoryRowProps) {
  const money = usePlanMoney();
  const tone = availableTone(row.available);
  return (
    <TableRow data-category={row.name}>
      <TableCell sx={{ overflowWrap: 'break-word' }}>
        <Typography variant="body2" component="div" sx={{ fontWeight: 500 }}>
          {row.name}
          {row.hidden && (
            <Typography component="span" variant="caption" color="text.secondary">
              {' '}
              (hidden; shown while it has money this month)
            </Typography>
          )}
        </Typography>
        {phone && (
          <Box>
            <ActivityLink month={month} row={row} />
          </Box>
        )}
        <TargetLine row={row} />
      </TableCell>
      <TableCell align="right">
        <AssignedInput categoryName={row.name} assigned={row.assigned} onSave={(cents) => onAssign(row, cents)} />
      </TableCell>
      {!phone && (
        <TableCell align="right">
          <ActivityLink month={month} row={row} />
        </TableCell>
      )}
      <TableCell align="right">
        <Typography
          variant="body2"
          component="div"
          data-testid="available"
          sx={[FIGURE_SX, { fontWeight: 600 }, toneSx(tone)]}
        >
          {money.show(row.available)}
        </Typography>
        {tone === 'overspent' && (
          <>
            <Typography variant="caption" component="div" sx={toneSx(tone)}>
              Overspent{row.rollsOverspending ? ' (rolls over)' : ''}
            </Typography>
            <Button
              size="small"
              onClick={() => onCover(row)}
              aria-label={`Cover ${row.name}`}
              sx={{ minWidth: 0, px: 0.5 }}
            >
              Cover
            </Button>
          </>
        )}
      </TableCell>
    </TableRow>
  );
}

/** The category's spending this month, opening its transactions of the month. */
function ActivityLink({ month, row }: { month: string; row: PlanCategoryDto }) {
  const money = usePlanMoney();
  const { start, end } = monthRange(month);
  const text = money.show(row.activity);
  return (
    <TextLink
      to="/transactions"
      search={{ startDate: start, endDate: end, categories: [row.name] }}
      aria-label={`Activity of ${row.name}: ${text}`}
      variant="body2"
      sx={FIGURE_SX}
    >
      {text}
    </TextLink>
  );
}

/** A target's progress bar and what it still needs this month; underfunded targets are marked. */
function TargetLine({ row }: { row: PlanCategoryDto }) {
  const money = usePlanMoney();
  const progress = targetProgress(row);
  if (!progress || !row.target) return null;
  const amount = money.show(row.target.amount);
  const goal =
    row.target.type === 'byDate'
      ? `${amount} by ${row.target.date}`
      : row.target.type === 'monthly'
        ? `${amount} each month`
        : `refill up to ${amount}`;
  return (
    <Box sx={{ mt: 0.5, maxWidth: 260 }}>
      <LinearProgress
        variant="determinate"
        value={progress.percent}
        color={progress.underfunded ? 'warning' : 'success'}
        aria-label={`Target of ${row.name}: ${goal}`}
      />
      <Typography variant="caption" component="div" color="text.secondary">
        {progress.underfunded ? `Underfunded: needs ${money.show(progress.needed)} more` : 'Target met'} · {goal}
      </Typography>
    </Box>
  );
}
