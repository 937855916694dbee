import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  useMediaQuery,
  useTheme,
  type Breakpoint,
} from '@mui/material';
import { useCallback, useId, type ReactNode, type SubmitEvent } from 'react';

/** What FormDialog reads of a TanStack Query mutation (`trpc.x.y.useMutation()`): whether it is under way. */
export interface PendingMutation {
  readonly isPending: boolean;
}

export interface FormDialogProps {
  /** Defaults to true, for owners that mount the dialog only while it is open. */
  open?: boolean;
  title: ReactNode;
  children?: ReactNode;
  /** A refusal or a problem with the whole form, shown in an error alert under the fields. */
  error?: string | null;
  /**
   * The mutation (or mutations) the submit runs. While one is pending the dialog is busy: its buttons are disabled,
   * the submit button reads `busyLabel`, and Escape or a click outside does not close it.
   */
  mutation?: PendingMutation | readonly PendingMutation[];
  /** Busy for work that is not a mutation (e.g. a query the submit awaits). */
  busy?: boolean;
  /** Runs on the submit button and on Enter in a field, unless the dialog is busy or `canSubmit` is false. */
  onSubmit: () => unknown;
  onClose: () => void;
  submitLabel?: string;
  busyLabel?: string;
  cancelLabel?: string;
  /** False disables the submit button (e.g. until the parts of a split add up). */
  canSubmit?: boolean;
  /** Colours the submit button red, for a confirmation that deletes. */
  destructive?: boolean;
  /** The element described by this id is read out with the title (a confirmation's question). */
  describedBy?: string;
  maxWidth?: Breakpoint;
  /** Fills a phone's screen (below the `sm` breakpoint), for dialogs with many fields side by side. */
  fullScreenOnPhone?: boolean;
  /** Puts focus on the submit button when the dialog opens instead of in its first field (a confirmation). */
  focusSubmit?: boolean;
}

/** Fields that can take focus: MUI's hidden companions (tabindex -1) are left out. */
const FIELD_SELECTOR = [
  'input:not([type="hidden"]):not([disabled]):not([tabindex="-1"])',
  'textarea:not([disabled]):not([tabindex="-1"])',
  'select:not([disabled])',
  '[role="combobox"]:not([aria-disabled="true"]):not([tabindex="-1"])',
].join(', ');

function isBusy(mutation: FormDialogProps['mutation'], busy: boolean): boolean {
  if (busy) return true;
  if (!mutation) return false;
  return 'isPending' in mutation ? mutation.isPending : mutation.some((m) => m.isPending);
}

/**
 * Every dialog that creates or edits something: a form with a title, the fields, an error alert and Cancel/Save.
 * Enter in a field submits; focus starts in the first field (MUI traps it inside and gives it back to the opener on
 * close); while the mutation is pending the buttons are disabled and the dialog cannot be dismissed, so a save is
 * never sent twice nor left unseen.
 */
export function FormDialog({
  open = true,
  title,
  children,
  error,
  mutation,
  busy: extraBusy = false,
  onSubmit,
  onClose,
  submitLabel = 'Save',
  busyLabel = 'Saving…',
  cancelLabel = 'Cancel',
  canSubmit = true,
  destructive = false,
  describedBy,
  maxWidth = 'sm',
  fullScreenOnPhone = false,
  focusSubmit = false,
}: FormDialogProps) {
  const titleId = useId();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const busy = isBusy(mutation, extraBusy);
  // Runs when the content mounts (each opening), before MUI's focus trap would focus the dialog itself; a field
  // that asked for autoFocus keeps it.
  const focusFirstField = useCallback(
    (content: HTMLDivElement | null) => {
      if (!content || focusSubmit || content.contains(document.activeElement)) return;
      content.querySelector<HTMLElement>(FIELD_SELECTOR)?.focus();
    },
    [focusSubmit],
  );

  function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy || !canSubmit) return;
    void onSubmit();
  }

  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      aria-describedby={describedBy}
      maxWidth={maxWidth}
      fullWidth
      fullScreen={fullScreenOnPhone && phone}
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent ref={focusFirstField}>
          {children}
          {error && (
            <Alert severity="error" role="alert" sx={{ mt: 2 }}>
              {error}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            {cancelLabel}
          </Button>
          <Button
            type="submit"
            variant="contained"
            color={destructive ? 'error' : 'primary'}
            disabled={busy || !canSubmit}
            // eslint-disable-next-line jsx-a11y/no-autofocus -- a confirmation opens on its answer, so Enter confirms
            autoFocus={focusSubmit}
          >
            {busy ? busyLabel : submitLabel}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
