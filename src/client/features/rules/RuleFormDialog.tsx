import { Button, FormControlLabel, MenuItem, Stack, Switch, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { MAX_CONDITIONS_PER_RULE, RULE_PRIORITY_MAX, RULE_PRIORITY_MIN, type RuleDto } from '../../../shared/rules';
import { TRANSACTION_TYPES, type TransactionType } from '../../../shared/schemas/transactions';
import { FormDialog } from '../../components/FormDialog';
import { useHomeCurrency } from '../../lib/currency';
import { browserLocale } from '../../lib/locale';
import { serverMessage, trpc } from '../../lib/trpc';
import { CategoryPicker } from './CategoryPicker';
import { ConditionRow } from './ConditionRow';
import { MatchCount } from './MatchCount';
import { newCondition, readConditions, ruleInputOf, toDraft, type RuleDraft } from './ruleForm';

interface RuleFormDialogProps {
  /** The rule being edited, or null for a new one. */
  rule: RuleDto | null;
  onClose: () => void;
  onSaved: (rule: RuleDto) => void;
}

/** Create or edit a rule, with a live count of the transactions its conditions match. */
export function RuleFormDialog({ rule, onClose, onSaved }: RuleFormDialogProps) {
  const locale = browserLocale();
  const home = useHomeCurrency();
  const [draft, setDraft] = useState<RuleDraft>(() => toDraft(rule, locale, home));
  const [error, setError] = useState('');
  const utils = trpc.useUtils();
  const create = trpc.rules.create.useMutation();
  const update = trpc.rules.update.useMutation();
  const set = (change: Partial<RuleDraft>) => setDraft((d) => ({ ...d, ...change }));

  async function save() {
    setError('');
    if (!draft.name.trim()) {
      setError('Rule name is required');
      return;
    }
    const input = ruleInputOf(draft, locale, home);
    try {
      const saved = rule ? await update.mutateAsync({ id: rule.id, data: input }) : await create.mutateAsync(input);
      await Promise.all([utils.rules.list.invalidate(), utils.categories.list.invalidate()]);
      onSaved(saved);
    } catch (failure) {
      setError(serverMessage(failure, 'Failed to save rule'));
    }
  }

  return (
    <FormDialog
      title={rule ? `Edit rule '${rule.name}'` : 'New rule'}
      error={error}
      mutation={[create, update]}
      onSubmit={save}
      onClose={onClose}
      submitLabel="Save rule"
      maxWidth="md"
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <TextField
          label="Rule name"
          required
          value={draft.name}
          onChange={(e) => set({ name: e.target.value })}
          autoComplete="off"
        />
        <ConditionsFields draft={draft} locale={locale} home={home} set={set} />
        <ActionFields draft={draft} set={set} />
      </Stack>
    </FormDialog>
  );
}

interface FieldsProps {
  draft: RuleDraft;
  set: (change: Partial<RuleDraft>) => void;
}

/** "When all of these match": the conditions, Add condition and the live count of matching transactions. */
function ConditionsFields({ draft, locale, home, set }: FieldsProps & { locale: string; home: string }) {
  const accounts = trpc.accounts.list.useQuery();
  // The currencies an amount may be in: the home currency, the accounts' and any a condition already names.
  const currencies = [
    ...new Set([home, ...(accounts.data ?? []).map((a) => a.currency), ...draft.conditions.map((c) => c.currency)]),
  ];
  return (
    <>
      <Typography variant="subtitle1" component="h3">
        When all of these match
      </Typography>
      {draft.conditions.map((condition, i) => (
        <ConditionRow
          key={i}
          index={i}
          condition={condition}
          locale={locale}
          home={home}
          currencies={currencies}
          canRemove={draft.conditions.length > 1}
          onChange={(next) => set({ conditions: draft.conditions.map((c, j) => (j === i ? next : c)) })}
          onRemove={() => set({ conditions: draft.conditions.filter((_, j) => j !== i) })}
        />
      ))}
      <Button
        onClick={() => set({ conditions: [...draft.conditions, newCondition('description', home)] })}
        disabled={draft.conditions.length >= MAX_CONDITIONS_PER_RULE}
        sx={{ alignSelf: 'flex-start' }}
      >
        Add condition
      </Button>
      <MatchCount conditions={readConditions(draft.conditions, locale, home)} />
    </>
  );
}

/** "Then set": category, type, a new description, and the rule's priority and switch. */
function ActionFields({ draft, set }: FieldsProps) {
  return (
    <>
      <Typography variant="subtitle1" component="h3">
        Then set
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <CategoryPicker
          label="Set category"
          value={draft.category}
          onChange={(category, createCategory) => set({ category, createCategory })}
        />
        <TextField
          select
          label="Set type"
          value={draft.type}
          onChange={(e) => set({ type: e.target.value as TransactionType | '' })}
          sx={{ minWidth: 160 }}
          helperText=" "
        >
          <MenuItem value="">Leave as is</MenuItem>
          {TRANSACTION_TYPES.map((type) => (
            <MenuItem key={type} value={type}>
              {type}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      <TextField
        label="Rename description to"
        value={draft.description}
        onChange={(e) => set({ description: e.target.value })}
        autoComplete="off"
        helperText="Optional"
      />
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <TextField
          label="Priority"
          type="number"
          value={draft.priority}
          onChange={(e) => set({ priority: e.target.value })}
          helperText={`Lower runs first (${RULE_PRIORITY_MIN} to ${RULE_PRIORITY_MAX})`}
          slotProps={{ htmlInput: { min: RULE_PRIORITY_MIN, max: RULE_PRIORITY_MAX, step: 1 } }}
          sx={{ width: 200 }}
        />
        <FormControlLabel
          control={<Switch checked={draft.enabled} onChange={(e) => set({ enabled: e.target.checked })} />}
          label="Enabled"
        />
      </Stack>
    </>
  );
}
