import DeleteIcon from '@mui/icons-material/Delete';
import { IconButton, MenuItem, Stack, TextField } from '@mui/material';
import { RULE_FIELDS, RULE_OPS, type RuleField } from '../../../shared/rules';
import { FIELD_LABELS, newCondition, OP_LABELS, readCondition, type ConditionDraft } from './ruleForm';

interface ConditionRowProps {
  index: number;
  condition: ConditionDraft;
  locale: string;
  /** The home currency, and every currency an amount may be in (a choice only when there are several). */
  home: string;
  currencies: readonly string[];
  canRemove: boolean;
  onChange: (next: ConditionDraft) => void;
  onRemove: () => void;
}

/** One condition: field, operator and value (two amounts for "is between", with their currency). */
export function ConditionRow(props: ConditionRowProps) {
  const { index, condition, locale, home, currencies, canRemove, onChange, onRemove } = props;
  const n = index + 1;
  const read = condition.value === '' ? null : readCondition(condition, locale, home);
  const amountError = condition.field === 'amount' && read && !read.ok ? read.message : '';
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
      <TextField
        select
        size="small"
        label={`Condition ${n} field`}
        value={condition.field}
        onChange={(e) => onChange(newCondition(e.target.value as RuleField, home))}
        sx={{ minWidth: 140 }}
      >
        {RULE_FIELDS.map((field) => (
          <MenuItem key={field} value={field}>
            {FIELD_LABELS[field]}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        select
        size="small"
        label={`Condition ${n} operator`}
        value={condition.op}
        onChange={(e) => onChange({ ...condition, op: e.target.value })}
        sx={{ minWidth: 180 }}
      >
        {RULE_OPS[condition.field].map((op) => (
          <MenuItem key={op} value={op}>
            {OP_LABELS[op]}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        size="small"
        label={condition.op === 'between' ? `Condition ${n} from` : `Condition ${n} value`}
        value={condition.value}
        onChange={(e) => onChange({ ...condition, value: e.target.value })}
        error={Boolean(amountError)}
        helperText={amountError || (condition.field === 'amount' ? 'Money out is negative, e.g. -4.50' : ' ')}
        slotProps={{ htmlInput: condition.field === 'amount' ? { inputMode: 'decimal' } : undefined }}
        sx={{ flexGrow: 1 }}
        autoComplete="off"
      />
      {condition.op === 'between' && (
        <TextField
          size="small"
          label={`Condition ${n} to`}
          value={condition.high}
          onChange={(e) => onChange({ ...condition, high: e.target.value })}
          slotProps={{ htmlInput: { inputMode: 'decimal' } }}
          helperText=" "
          autoComplete="off"
        />
      )}
      {condition.field === 'amount' && currencies.length > 1 && (
        <TextField
          select
          size="small"
          label={`Condition ${n} currency`}
          value={condition.currency}
          onChange={(e) => onChange({ ...condition, currency: e.target.value })}
          helperText="Only transactions in it"
          sx={{ minWidth: 110 }}
        >
          {currencies.map((code) => (
            <MenuItem key={code} value={code}>
              {code}
            </MenuItem>
          ))}
        </TextField>
      )}
      <IconButton aria-label={`Remove condition ${n}`} onClick={onRemove} disabled={!canRemove}>
        <DeleteIcon />
      </IconButton>
    </Stack>
  );
}
