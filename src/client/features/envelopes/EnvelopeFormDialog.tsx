import {
  Box,
  Checkbox,
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  Stack,
  TextField,
} from '@mui/material';
import { useId, useRef, useState, type RefObject } from 'react';
import { FormDialog } from '../../components/FormDialog';
import { ENVELOPE_COLORS, type EnvelopeDto } from '../../../shared/schemas/envelopes';
import { serverMessage, trpc } from '../../lib/trpc';
import {
  EMPTY_ENVELOPE_FORM,
  formFromEnvelope,
  saveRequest,
  type EnvelopeForm,
  type EnvelopeFormErrors,
} from './envelopeForm';

interface EnvelopeFormDialogProps {
  open: boolean;
  /** The envelope being edited; null creates a new one. */
  envelope: EnvelopeDto | null;
  onClose: () => void;
  /** Called after a successful save with the stored envelope. */
  onSaved: (saved: EnvelopeDto, created: boolean) => void;
}

/**
 * The create/edit modal: Name, Description (3 rows), Categories
 * (comma-separated), Colour (one of ten) and, only when editing, Active.
 */
export function EnvelopeFormDialog({ open, envelope, onClose, onSaved }: EnvelopeFormDialogProps) {
  // The owner remounts this dialog (a new key) for every opening, so the form starts fresh.
  const [form, setForm] = useState<EnvelopeForm>(() => (envelope ? formFromEnvelope(envelope) : EMPTY_ENVELOPE_FORM));
  const [errors, setErrors] = useState<EnvelopeFormErrors>({});
  const [saveError, setSaveError] = useState('');
  const create = trpc.envelopes.create.useMutation();
  const update = trpc.envelopes.update.useMutation();
  const nameRef = useRef<HTMLInputElement>(null);
  const categoriesRef = useRef<HTMLInputElement>(null);

  function change(patch: Partial<EnvelopeForm>) {
    setForm((current) => ({ ...current, ...patch }));
    setErrors((current) => {
      const next = { ...current };
      if ('name' in patch) delete next.name;
      if ('categories' in patch) delete next.categories;
      return next;
    });
  }

  async function submit() {
    setSaveError('');
    const request = saveRequest(form, envelope);
    if (!request.ok) {
      setErrors(request.errors);
      (request.errors.name ? nameRef : categoriesRef).current?.focus();
      return;
    }
    try {
      const saved =
        request.kind === 'create' ? await create.mutateAsync(request.input) : await update.mutateAsync(request.input);
      onSaved(saved, request.kind === 'create');
    } catch (failure) {
      setSaveError(serverMessage(failure, 'Failed to save envelope'));
    }
  }

  return (
    <FormDialog
      open={open}
      title={envelope ? 'Edit Envelope' : 'Create Envelope'}
      error={saveError}
      mutation={[create, update]}
      onSubmit={submit}
      onClose={onClose}
      submitLabel="Save Envelope"
    >
      <EnvelopeFields
        form={form}
        errors={errors}
        editing={envelope !== null}
        nameRef={nameRef}
        categoriesRef={categoriesRef}
        onChange={change}
      />
    </FormDialog>
  );
}

interface EnvelopeFieldsProps {
  form: EnvelopeForm;
  errors: EnvelopeFormErrors;
  /** A stored envelope: it can also be made inactive. */
  editing: boolean;
  nameRef: RefObject<HTMLInputElement | null>;
  categoriesRef: RefObject<HTMLInputElement | null>;
  onChange: (patch: Partial<EnvelopeForm>) => void;
}

/** The envelope's fields; the refs let a refused save focus the first field in error. */
function EnvelopeFields({ form, errors, editing, nameRef, categoriesRef, onChange }: EnvelopeFieldsProps) {
  return (
    <Stack spacing={2} sx={{ pt: 1 }}>
      <TextField
        label="Name"
        required
        inputRef={nameRef}
        value={form.name}
        onChange={(e) => onChange({ name: e.target.value })}
        error={Boolean(errors.name)}
        helperText={errors.name}
        autoComplete="off"
        fullWidth
      />
      <TextField
        label="Description"
        multiline
        rows={3}
        value={form.description}
        onChange={(e) => onChange({ description: e.target.value })}
        fullWidth
      />
      <TextField
        label="Categories"
        required
        inputRef={categoriesRef}
        value={form.categories}
        onChange={(e) => onChange({ categories: e.target.value })}
        error={Boolean(errors.categories)}
        helperText={errors.categories ?? 'Separate categories with commas, e.g. Groceries, Dining'}
        autoComplete="off"
        fullWidth
      />
      <ColourChoice value={form.color} onChange={(color) => onChange({ color })} />
      {editing && (
        <FormControlLabel
          control={<Checkbox checked={form.isActive} onChange={(e) => onChange({ isActive: e.target.checked })} />}
          label="Active"
        />
      )}
    </Stack>
  );
}

/** The ten envelope colours as radio buttons, each with its swatch. */
function ColourChoice({ value, onChange }: { value: string; onChange: (color: string) => void }) {
  const labelId = useId();
  return (
    <FormControl component="fieldset">
      <FormLabel component="legend" id={labelId}>
        Colour
      </FormLabel>
      <RadioGroup
        aria-labelledby={labelId}
        name="envelope-colour"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        sx={{
          display: 'grid',
          gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(3, minmax(0, 1fr))' },
          columnGap: 1,
        }}
      >
        {ENVELOPE_COLORS.map((colour) => (
          <FormControlLabel
            key={colour.value}
            value={colour.value}
            control={<Radio size="small" />}
            sx={{ mr: 0, minWidth: 0 }}
            label={
              <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}>
                <Box
                  component="span"
                  aria-hidden
                  sx={{
                    width: 18,
                    height: 18,
                    borderRadius: '50%',
                    bgcolor: colour.value,
                    flexShrink: 0,
                    border: 1,
                    borderColor: 'divider',
                  }}
                />
                {colour.name}
              </Box>
            }
          />
        ))}
      </RadioGroup>
    </FormControl>
  );
}
