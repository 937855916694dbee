import { Checkbox, DialogContentText, FormControlLabel } from '@mui/material';
import { useId, useState } from 'react';
import type { TransactionDto } from '../../../shared/schemas/transactions';
import { FormDialog } from '../FormDialog';

/** How many of the rows are one side of a transfer whose other side is not among them. */
export function otherSidesOf(rows: readonly TransactionDto[]): number {
  const ids = new Set(rows.map((tx) => tx.id));
  return rows.filter((tx) => tx.transferCounterpartId !== null && !ids.has(tx.transferCounterpartId)).length;
}

/**
 * The delete confirmation. When some rows are one side of a transfer it asks whether the other
 * sides go too (left unchecked they stay, unlinked).
 */
export function DeleteRowsDialog(props: {
  open: boolean;
  selected: readonly TransactionDto[];
  busy: boolean;
  onConfirm: (withCounterpart: boolean) => void;
  onCancel: () => void;
}) {
  const { open, selected, busy, onConfirm, onCancel } = props;
  const [withCounterpart, setWithCounterpart] = useState(false);
  const textId = useId();
  const sides = otherSidesOf(selected);
  return (
    <FormDialog
      open={open}
      title="Delete Selected"
      describedBy={textId}
      maxWidth="xs"
      busy={busy}
      onSubmit={() => onConfirm(sides > 0 && withCounterpart)}
      onClose={onCancel}
      submitLabel="Delete"
      busyLabel="Delete"
      destructive
      focusSubmit
    >
      <DialogContentText id={textId}>
        {`Are you sure you want to delete ${selected.length} selected transactions? They go to the trash (History, Trash), where they can be restored for 30 days.`}
        {sides > 0 &&
          ` ${sides === 1 ? 'One of them is' : `${sides} of them are`} one side of a transfer: the other side stays, unlinked, unless you delete it too.`}
      </DialogContentText>
      {sides > 0 && (
        <FormControlLabel
          control={<Checkbox checked={withCounterpart} onChange={(e) => setWithCounterpart(e.target.checked)} />}
          label={`Also delete the other side of ${sides === 1 ? 'the transfer' : `the ${sides} transfers`}`}
        />
      )}
    </FormDialog>
  );
}
