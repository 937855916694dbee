import { Alert, Box, Paper, Stack, Typography } from '@mui/material';
import { UNCATEGORIZED_LABEL } from '../../../shared/categories';
import { addMonths, monthRange } from '../../../shared/plan/months';
import { availableTone, monthTitle } from '../../../shared/plan/view';
import type { PlanDto } from '../../../shared/schemas/plan';
import { TextLink } from '../../components/RouterLinks';
import { FIGURE_SX, toneSx } from './planStyles';
import { usePlanMoney } from './usePlanMoney';

/**
 * To Assign at the top of the plan, coloured by whether it is positive, zero or negative, with the
 * figures it comes from, last month's overspending it absorbed, and the uncategorised line.
 */
export function ToAssignSummary({ plan }: { plan: PlanDto }) {
  const money = usePlanMoney();
  const tone = availableTone(plan.toAssign);
  // The figures To Assign is the sum of.
  const parts: [string, number][] = [
    ['Income', plan.income],
    ['From last month', plan.fromLastMonth],
    ...(plan.overspentLastMonth !== 0 ? [['Overspent last month', plan.overspentLastMonth] as [string, number]] : []),
    ['Assigned', -plan.assigned],
    ['Held for next month', -plan.held],
  ];
  return (
    <Paper sx={{ p: { xs: 2, sm: 3 }, mb: 2 }} aria-labelledby="plan-to-assign-label">
      <Typography id="plan-to-assign-label" variant="subtitle1" component="h2" sx={{ fontWeight: 600 }}>
        To Assign
      </Typography>
      <Typography
        data-testid="to-assign"
        component="p"
        sx={[FIGURE_SX, { fontSize: '2rem', fontWeight: 700, lineHeight: 1.2 }, toneSx(tone)]}
      >
        {money.show(plan.toAssign)}
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {tone === 'overspent'
          ? 'Assigned more than you have: take some back from a category.'
          : tone === 'zero'
            ? 'Every dollar has a job.'
            : 'Ready to assign to your categories.'}
      </Typography>
      <Stack direction="row" sx={{ flexWrap: 'wrap', columnGap: 3, rowGap: 0.5 }}>
        {parts.map(([label, cents]) => (
          <Typography key={label} variant="body2">
            {label}:{' '}
            <Box component="span" sx={FIGURE_SX}>
              {money.show(cents)}
            </Box>
          </Typography>
        ))}
      </Stack>
      <Overspent plan={plan} />
      <Uncategorized plan={plan} />
    </Paper>
  );
}

/** "−$42.10 overspent in October taken from To Assign (Food −$30.00, Fun −$12.10)". */
function Overspent({ plan }: { plan: PlanDto }) {
  const money = usePlanMoney();
  if (plan.overspentLastMonth === 0) return null;
  const from = plan.overspentFrom.map((row) => `${row.name} ${money.show(row.amount)}`).join(', ');
  return (
    <Alert severity="warning" sx={{ mt: 2 }}>
      {money.show(plan.overspentLastMonth)} overspent in {monthTitle(addMonths(plan.month, -1))} taken from To Assign
      {from ? ` (${from})` : ''}.
    </Alert>
  );
}

/** Uncategorised on-plan transactions up to the month's end, with a link to categorise them. */
function Uncategorized({ plan }: { plan: PlanDto }) {
  const money = usePlanMoney();
  const { count, amount } = plan.uncategorized;
  if (count === 0) return null;
  return (
    <Alert severity="info" sx={{ mt: 2 }}>
      {count} uncategorised {count === 1 ? 'transaction' : 'transactions'} ({money.show(amount)}) up to the end of{' '}
      {monthTitle(plan.month)} {count === 1 ? 'is' : 'are'} in no category.{' '}
      <TextLink
        to="/transactions"
        search={{ startDate: '', endDate: monthRange(plan.month).end, categories: [UNCATEGORIZED_LABEL] }}
      >
        Categorise them
      </TextLink>
    </Alert>
  );
}
