import { InputBase, Typography } from '@mui/material';
import { useId, useState, type KeyboardEvent } from 'react';
import { usePlanMoney } from './usePlanMoney';

/** Marks the assigned fields of the plan, so Enter can move to the next one. */
const FIELD_ATTRIBUTE = 'data-plan-assigned';

interface AssignedInputProps {
  categoryName: string;
  assigned: number;
  onSave: (cents: number) => void;
}

/** Focuses the plan's next assigned field after `field` (or the first when it was the last). */
function focusNextField(field: HTMLInputElement) {
  const fields = [...document.querySelectorAll<HTMLInputElement>(`input[${FIELD_ATTRIBUTE}]`)];
  const next = fields[fields.indexOf(field) + 1];
  if (next) {
    next.focus();
    next.select();
  } else field.select();
}

/**
 * A category's assigned amount, edited in place with the shared amount parser: Enter saves and moves
 * to the next category, leaving the field (Tab) saves, Escape puts the amount back. Blank is zero.
 */
export function AssignedInput({ categoryName, assigned, onSave }: AssignedInputProps) {
  const money = usePlanMoney();
  const [text, setText] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const problemId = useId();
  const shown = text ?? money.input(assigned);

  /** Saves what was typed; false when it is no amount (the field keeps it and says why). */
  function commit(): boolean {
    if (text === null) return true;
    const reading = money.read(text);
    if (!reading.ok) {
      setProblem(reading.message);
      return false;
    }
    setText(null);
    setProblem(null);
    const cents = reading.cents ?? 0;
    if (cents !== assigned) onSave(cents);
    return true;
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Enter') {
      event.preventDefault();
      if (commit()) focusNextField(event.currentTarget);
    } else if (event.key === 'Escape' && (text !== null || problem !== null)) {
      event.preventDefault();
      setText(null);
      setProblem(null);
      event.currentTarget.select();
    }
  }

  return (
    <>
      <InputBase
        value={shown}
        onChange={(event) => setText(event.target.value)}
        onFocus={(event) => event.target.select()}
        onBlur={() => void commit()}
        onKeyDown={onKeyDown}
        error={problem !== null}
        inputProps={{
          [FIELD_ATTRIBUTE]: '',
          'aria-label': `Assigned to ${categoryName}`,
          'aria-invalid': problem !== null,
          'aria-describedby': problem ? problemId : undefined,
          inputMode: 'decimal',
          autoComplete: 'off',
          spellCheck: false,
        }}
        sx={{
          width: '100%',
          maxWidth: 130,
          px: 1,
          border: 1,
          borderColor: problem ? 'error.main' : 'divider',
          borderRadius: 1,
          '& input': { textAlign: 'right', fontVariantNumeric: 'tabular-nums', py: 0.5 },
        }}
      />
      {problem && (
        <Typography id={problemId} role="alert" variant="caption" color="error" sx={{ display: 'block' }}>
          {problem}
        </Typography>
      )}
    </>
  );
}
