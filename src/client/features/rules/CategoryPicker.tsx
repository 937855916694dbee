import { Autocomplete, TextField } from '@mui/material';
import { useState } from 'react';
import { nameKey } from '../../../shared/names';
import { useCategoryNames } from '../../components/transactions/hooks';

interface Choice {
  name: string;
  /** The explicit "Create category" choice: the name typed, which no category has. */
  create: boolean;
}

interface CategoryPickerProps {
  label: string;
  value: string;
  /** `create` is true only when the person picked "Create category". */
  onChange: (name: string, create: boolean) => void;
}

/**
 * Picks one of the user's categories. Text that names none offers `Create category "X"` as a
 * choice of its own: a new category is never made from a typo by leaving the field.
 */
export function CategoryPicker({ label, value, onChange }: CategoryPickerProps) {
  const { names, error } = useCategoryNames();
  const [input, setInput] = useState(value);
  const choices: Choice[] = names.map((name) => ({ name, create: false }));
  const selected = value ? { name: value, create: !names.some((n) => nameKey(n) === nameKey(value)) } : null;
  return (
    <Autocomplete<Choice>
      options={choices}
      value={selected}
      inputValue={input}
      onInputChange={(_event, text) => setInput(text)}
      onChange={(_event, choice) => onChange(choice?.name ?? '', choice?.create ?? false)}
      isOptionEqualToValue={(option, current) => nameKey(option.name) === nameKey(current.name)}
      getOptionLabel={(choice) => choice.name}
      getOptionKey={(choice) => `${choice.create ? 'create' : 'existing'}:${choice.name}`}
      filterOptions={(options, state) => {
        const typed = state.inputValue.trim();
        const shown = options.filter((o) => nameKey(o.name).includes(nameKey(typed)));
        const exists = options.some((o) => nameKey(o.name) === nameKey(typed));
        return typed && !exists ? [...shown, { name: typed, create: true }] : shown;
      }}
      renderOption={({ key, ...props }, choice) => (
        <li key={key} {...props}>
          {choice.create ? `Create category "${choice.name}"` : choice.name}
        </li>
      )}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          error={Boolean(error)}
          helperText={error ?? (selected?.create ? `"${selected.name}" will be created` : 'One of your categories')}
        />
      )}
      sx={{ flexGrow: 1 }}
    />
  );
}
