import {
  Checkbox,
  FormControlLabel,
  FormGroup,
  FormLabel,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { FILL_MODES, type FillMode, type PlanCategoryDto, type PlanDto } from '../../../shared/schemas/plan';
import { FormDialog } from '../../components/FormDialog';
import { MoneyField } from '../../components/MoneyField';
import { serverMessage } from '../../lib/trpc';
import type { usePlanActions } from './usePlan';
import { usePlanMoney } from './usePlanMoney';

type Actions = ReturnType<typeof usePlanActions>;

/** To Assign in the move dialog's pickers (categories are their ids). */
const TO_ASSIGN = 'toAssign';

interface MoveDialogProps {
  plan: PlanDto;
  move: Actions['move'];
  /** Covering an overspent category: it receives, the category with the most available gives. */
  cover?: PlanCategoryDto;
  onClose: () => void;
  onDone: (message: string) => void;
}

function sideOf(value: string): number | null {
  return value === TO_ASSIGN ? null : Number(value);
}

/** Moves money between two categories, or between a category and To Assign. */
export function MoveDialog({ plan, move, cover, onClose, onDone }: MoveDialogProps) {
  const money = usePlanMoney();
  const richest = [...plan.categories]
    .filter((row) => row.category !== cover?.category)
    .sort((a, b) => b.available - a.available)[0];
  const [from, setFrom] = useState(cover && richest ? String(richest.category) : TO_ASSIGN);
  const [to, setTo] = useState(cover ? String(cover.category) : '');
  const [amount, setAmount] = useState(cover ? money.input(-cover.available) : '');
  const [error, setError] = useState('');
  const nameOf = (value: string) =>
    value === TO_ASSIGN ? 'To Assign' : (plan.categories.find((row) => String(row.category) === value)?.name ?? '');

  async function submit() {
    setError('');
    const reading = money.read(amount, { required: true, unsigned: true });
    if (!reading.ok) {
      setError(reading.message);
      return;
    }
    if (!reading.cents) {
      setError('Enter an amount of more than zero');
      return;
    }
    if (!to) {
      setError('Choose where the money goes');
      return;
    }
    if (from === to) {
      setError('Choose two different places');
      return;
    }
    try {
      await move.mutateAsync({ month: plan.month, from: sideOf(from), to: sideOf(to), amount: reading.cents });
      onDone(`Moved ${money.show(reading.cents)} from ${nameOf(from)} to ${nameOf(to)}`);
    } catch (failure) {
      setError(serverMessage(failure, 'Failed to move the money'));
    }
  }

  const options = [
    <MenuItem key={TO_ASSIGN} value={TO_ASSIGN}>
      To Assign ({money.show(plan.toAssign)})
    </MenuItem>,
    ...plan.categories.map((row) => (
      <MenuItem key={row.category} value={String(row.category)}>
        {row.name} ({money.show(row.available)})
      </MenuItem>
    )),
  ];
  return (
    <FormDialog
      title={cover ? `Cover ${cover.name}` : 'Move money'}
      error={error || null}
      mutation={move}
      onSubmit={() => void submit()}
      onClose={onClose}
      submitLabel="Move"
      busyLabel="Moving…"
      maxWidth="xs"
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <TextField select label="From" value={from} onChange={(e) => setFrom(e.target.value)}>
          {options}
        </TextField>
        <TextField select label="To" value={to} onChange={(e) => setTo(e.target.value)}>
          {options}
        </TextField>
        <MoneyField label="Amount" value={amount} onChange={setAmount} unsigned currency={money.currency} />
      </Stack>
    </FormDialog>
  );
}

interface HoldDialogProps {
  plan: PlanDto;
  hold: Actions['hold'];
  onClose: () => void;
  onDone: (message: string) => void;
}

/** Holds part of To Assign for next month (0 releases it), at most what To Assign has. */
export function HoldDialog({ plan, hold, onClose, onDone }: HoldDialogProps) {
  const money = usePlanMoney();
  const [amount, setAmount] = useState(money.input(plan.held));
  const [error, setError] = useState('');

  async function submit() {
    setError('');
    const reading = money.read(amount, { unsigned: true });
    if (!reading.ok) {
      setError(reading.message);
      return;
    }
    const cents = reading.cents ?? 0;
    if (cents > plan.holdable) {
      setError(`You can hold at most ${money.show(plan.holdable)} this month`);
      return;
    }
    try {
      await hold.mutateAsync({ month: plan.month, amount: cents });
      onDone(cents === 0 ? 'Nothing held for next month' : `Holding ${money.show(cents)} for next month`);
    } catch (failure) {
      setError(serverMessage(failure, 'Failed to hold the money'));
    }
  }

  return (
    <FormDialog
      title="Hold for next month"
      error={error || null}
      mutation={hold}
      onSubmit={() => void submit()}
      onClose={onClose}
      submitLabel="Hold"
      maxWidth="xs"
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <Typography variant="body2">
          Held money leaves this month&apos;s To Assign and comes back in next month&apos;s. You can hold up to{' '}
          {money.show(plan.holdable)}; 0 releases it.
        </Typography>
        <MoneyField label="Amount to hold" value={amount} onChange={setAmount} unsigned currency={money.currency} />
      </Stack>
    </FormDialog>
  );
}

const FILL_LABELS: Record<FillMode, string> = {
  lastMonth: "Last month's assigned amounts",
  average3: 'Average spending of the last 3 months',
  average6: 'Average spending of the last 6 months',
  average12: 'Average spending of the last 12 months',
  targets: 'What targets still need',
  zero: 'Zero',
};

interface FillDialogProps {
  plan: PlanDto;
  fill: Actions['fill'];
  onClose: () => void;
  onDone: (message: string) => void;
}

/** Fills the month's assigned amounts, for every category or the ones ticked. */
export function FillDialog({ plan, fill, onClose, onDone }: FillDialogProps) {
  const [mode, setMode] = useState<FillMode>('targets');
  const [chosen, setChosen] = useState<ReadonlySet<number>>(new Set());
  const [error, setError] = useState('');

  async function submit() {
    setError('');
    try {
      await fill.mutateAsync({ month: plan.month, mode, ...(chosen.size > 0 ? { categories: [...chosen] } : {}) });
      onDone(
        `Filled ${chosen.size > 0 ? `${chosen.size} categories` : 'every category'}: ${FILL_LABELS[mode].toLowerCase()}`,
      );
    } catch (failure) {
      setError(serverMessage(failure, 'Failed to fill the month'));
    }
  }

  const toggle = (id: number, on: boolean) =>
    setChosen((before) => {
      const next = new Set(before);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  return (
    <FormDialog
      title="Fill assigned amounts"
      error={error || null}
      mutation={fill}
      onSubmit={() => void submit()}
      onClose={onClose}
      submitLabel="Fill"
      busyLabel="Filling…"
      maxWidth="sm"
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <TextField select label="Fill with" value={mode} onChange={(e) => setMode(e.target.value as FillMode)}>
          {FILL_MODES.map((value) => (
            <MenuItem key={value} value={value}>
              {FILL_LABELS[value]}
            </MenuItem>
          ))}
        </TextField>
        <FormGroup>
          <FormLabel component="legend">Only these categories (none ticked: every one shown)</FormLabel>
          {plan.categories.map((row) => (
            <FormControlLabel
              key={row.category}
              control={
                <Checkbox
                  size="small"
                  checked={chosen.has(row.category)}
                  onChange={(e) => toggle(row.category, e.target.checked)}
                />
              }
              label={row.name}
            />
          ))}
        </FormGroup>
      </Stack>
    </FormDialog>
  );
}
