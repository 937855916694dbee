import { Alert, Box, Button, List, ListItem, ListItemText, Paper, Stack, Typography } from '@mui/material';
import { getRouteApi } from '@tanstack/react-router';
import { useState } from 'react';
import { isMonth } from '../../../shared/plan/months';
import { monthTitle } from '../../../shared/plan/view';
import type { PlanCategoryDto, PlanDto } from '../../../shared/schemas/plan';
import { ConvertedNote } from '../../components/ConvertedNote';
import { ListStatus } from '../../components/ListStatus';
import { Notice, useNotice } from '../../components/Notice';
import { ButtonLink } from '../../components/RouterLinks';
import { thisMonth } from '../../lib/today';
import { trpc } from '../../lib/trpc';
import { MonthSwitcher } from './MonthSwitcher';
import { PlanCategories } from './PlanCategories';
import { FillDialog, HoldDialog, MoveDialog } from './PlanDialogs';
import { ToAssignSummary } from './ToAssignSummary';
import { usePlanActions, useSetAssigned } from './usePlan';
import { FIGURE_SX } from './planStyles';
import { usePlanMoney } from './usePlanMoney';

const monthRoute = getRouteApi('/_auth/plan/$month');

/** Plan (/plan): this month's plan. */
export function PlanScreen() {
  const [month] = useState(thisMonth);
  return <PlanMonth month={month} current={month} />;
}

/** Plan of any month (/plan/YYYY-MM). */
export function PlanMonthScreen() {
  const { month } = monthRoute.useParams();
  const [current] = useState(thisMonth);
  return <PlanMonth month={month} current={current} />;
}

type Open = { kind: 'move'; cover?: PlanCategoryDto } | { kind: 'hold' } | { kind: 'fill' } | null;

/**
 * A month's envelope plan: To Assign at the top, each expense category's assigned amount (edited in
 * place), activity and what is available, income, and the month's moves; money moves, is held for next
 * month, or fills the month from targets and averages.
 */
function PlanMonth({ month, current }: { month: string; current: string }) {
  return (
    <Box sx={{ maxWidth: 1000 }}>
      <Typography variant="h1" gutterBottom>
        Plan
      </Typography>
      {isMonth(month) ? (
        <>
          <MonthSwitcher month={month} current={current} />
          <PlanBody month={month} />
        </>
      ) : (
        <Alert severity="error" role="alert">
          &apos;{month}&apos; is not a month (YYYY-MM). <ButtonLink to="/plan">Open this month&apos;s plan</ButtonLink>
        </Alert>
      )}
    </Box>
  );
}

function PlanBody({ month }: { month: string }) {
  const [open, setOpen] = useState<Open>(null);
  const [notice, showNotice, clearNotice] = useNotice();
  const plan = trpc.plan.get.useQuery({ month });
  const setAssigned = useSetAssigned(month, (message) => showNotice(message, 'error'));
  const actions = usePlanActions(month);
  const done = (message: string) => {
    setOpen(null);
    // Plan changes are in the history: the notice offers to undo them.
    showNotice(message);
  };
  const data = plan.data;
  return (
    <>
      <ListStatus
        query={plan}
        empty={false}
        loadingLabel="Loading the plan"
        errorText="Failed to fetch the plan"
        emptyText=""
      />
      {data && (
        <>
          <ConvertedNote currency={data.currency} noRate={data.noRate} />
          <ToAssignSummary plan={data} />
          <Stack direction="row" spacing={1} sx={{ mb: 2, flexWrap: 'wrap', rowGap: 1 }}>
            <Button variant="contained" onClick={() => setOpen({ kind: 'move' })}>
              Move money
            </Button>
            <Button variant="outlined" onClick={() => setOpen({ kind: 'hold' })}>
              Hold for next month
            </Button>
            <Button variant="outlined" onClick={() => setOpen({ kind: 'fill' })}>
              Fill…
            </Button>
          </Stack>
          <CategoriesPanel
            plan={data}
            onAssign={(row, cents) => setAssigned.mutate({ month, category: row.category, amount: cents })}
            onCover={(row) => setOpen({ kind: 'move', cover: row })}
          />
          <IncomeAndMoves plan={data} />
          {open?.kind === 'move' && (
            <MoveDialog
              plan={data}
              move={actions.move}
              cover={open.cover}
              onClose={() => setOpen(null)}
              onDone={done}
            />
          )}
          {open?.kind === 'hold' && (
            <HoldDialog plan={data} hold={actions.hold} onClose={() => setOpen(null)} onDone={done} />
          )}
          {open?.kind === 'fill' && (
            <FillDialog plan={data} fill={actions.fill} onClose={() => setOpen(null)} onDone={done} />
          )}
        </>
      )}
      <Notice notice={notice} onClose={clearNotice} />
    </>
  );
}

interface CategoriesPanelProps {
  plan: PlanDto;
  onAssign: (row: PlanCategoryDto, cents: number) => void;
  onCover: (row: PlanCategoryDto) => void;
}

function CategoriesPanel({ plan, onAssign, onCover }: CategoriesPanelProps) {
  if (plan.categories.length === 0)
    return (
      <Paper sx={{ p: 3, mb: 2 }}>
        <Typography color="text.secondary">
          No expense categories to plan yet. Add some on the <ButtonLink to="/categories">Categories</ButtonLink>{' '}
          screen, or import transactions with categories.
        </Typography>
      </Paper>
    );
  return (
    <Paper sx={{ mb: 2, overflow: 'hidden' }}>
      <PlanCategories
        month={plan.month}
        title={monthTitle(plan.month)}
        categories={plan.categories}
        onAssign={onAssign}
        onCover={onCover}
      />
    </Paper>
  );
}

/** The month's income by category, and the moves made in it. */
function IncomeAndMoves({ plan }: { plan: PlanDto }) {
  const money = usePlanMoney();
  const names = new Map(plan.categories.map((row) => [row.category, row.name]));
  const side = (id: number | null) => (id === null ? 'To Assign' : (names.get(id) ?? 'a category'));
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: 'flex-start' }}>
      <Paper sx={{ p: 2, flex: 1, width: '100%' }}>
        <Typography variant="h3" component="h2" gutterBottom>
          Income:{' '}
          <Box component="span" sx={FIGURE_SX}>
            {money.show(plan.income)}
          </Box>
        </Typography>
        {plan.incomeCategories.length === 0 ? (
          <Typography color="text.secondary">No income categories have money in this month.</Typography>
        ) : (
          <List dense aria-label="Income categories">
            {plan.incomeCategories.map((row) => (
              <ListItem key={row.category} secondaryAction={<Box sx={FIGURE_SX}>{money.show(row.activity)}</Box>}>
                <ListItemText primary={row.name} />
              </ListItem>
            ))}
          </List>
        )}
      </Paper>
      <Paper sx={{ p: 2, flex: 1, width: '100%' }}>
        <Typography variant="h3" component="h2" gutterBottom>
          Moves this month
        </Typography>
        {plan.moves.length === 0 ? (
          <Typography color="text.secondary">No money moved this month.</Typography>
        ) : (
          <List dense aria-label="Moves this month">
            {plan.moves.map((move) => (
              <ListItem key={move.id}>
                <ListItemText
                  primary={`${money.show(move.amount)} from ${side(move.from)} to ${side(move.to)}`}
                  secondary={move.date}
                />
              </ListItem>
            ))}
          </List>
        )}
      </Paper>
    </Stack>
  );
}
