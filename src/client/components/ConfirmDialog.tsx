import { DialogContentText } from '@mui/material';
import { useId } from 'react';
import { FormDialog, type PendingMutation } from './FormDialog';

interface ConfirmDialogProps {
  open: boolean;
  title?: string;
  /** The question, e.g. 'Are you sure you want to delete this account?' */
  message: string;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Colours the confirm button red for destructive actions. */
  destructive?: boolean;
  busy?: boolean;
  /** The mutation the answer runs: the dialog is busy while it is pending. */
  mutation?: PendingMutation;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A modal yes/no question: focus is trapped inside, starts on the answer (so Enter confirms) and Escape cancels. */
export function ConfirmDialog({
  open,
  title = 'Please confirm',
  message,
  confirmLabel = 'Confirm',
  cancelLabel = 'Cancel',
  destructive = false,
  busy = false,
  mutation,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const textId = useId();
  return (
    <FormDialog
      open={open}
      title={title}
      describedBy={textId}
      maxWidth="xs"
      busy={busy}
      mutation={mutation}
      onSubmit={onConfirm}
      onClose={onCancel}
      submitLabel={confirmLabel}
      busyLabel={confirmLabel}
      cancelLabel={cancelLabel}
      destructive={destructive}
      focusSubmit
    >
      <DialogContentText id={textId}>{message}</DialogContentText>
    </FormDialog>
  );
}
