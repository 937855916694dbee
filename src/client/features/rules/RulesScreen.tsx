import ArrowDownwardIcon from '@mui/icons-material/ArrowDownward';
import ArrowUpwardIcon from '@mui/icons-material/ArrowUpward';
import {
  Box,
  Button,
  IconButton,
  List,
  ListItem,
  ListItemText,
  Paper,
  Stack,
  Switch,
  Tooltip,
  Typography,
} from '@mui/material';
import { useState, type ComponentProps } from 'react';
import type { RuleDto } from '../../../shared/rules';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ListStatus } from '../../components/ListStatus';
import { Notice, useNotice } from '../../components/Notice';
import { useHomeCurrency } from '../../lib/currency';
import { refusalMessage, trpc } from '../../lib/trpc';
import { ApplyRulesDialog } from './ApplyRulesDialog';
import { RuleFormDialog } from './RuleFormDialog';
import { describeActions, describeConditions } from './ruleForm';

/** Rules (/rules): the user's rules in the order they run, to create, edit, reorder, switch off, delete and apply. */
export function RulesScreen() {
  const [editing, setEditing] = useState<RuleDto | 'new' | null>(null);
  const [deleting, setDeleting] = useState<RuleDto | null>(null);
  const [applying, setApplying] = useState(false);
  const [notice, showNotice, clearNotice] = useNotice();
  const utils = trpc.useUtils();
  const list = trpc.rules.list.useQuery();
  const setEnabled = useEnabledSwitch(showNotice);
  const reorder = trpc.rules.reorder.useMutation({ onSuccess: (rules) => utils.rules.list.setData(undefined, rules) });
  const rules = list.data ?? [];

  function move(index: number, by: -1 | 1) {
    const ids = rules.map((r) => r.id);
    const here = ids[index];
    const there = ids[index + by];
    if (here === undefined || there === undefined) return;
    ids[index] = there;
    ids[index + by] = here;
    reorder.mutate({ ids }, { onError: (e) => showNotice(refusalMessage(e, 'Failed to reorder rules'), 'error') });
  }

  return (
    <Box sx={{ maxWidth: 960 }}>
      <Typography variant="h1" gutterBottom>
        Rules
      </Typography>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Rules set the category, type or description of every imported transaction they match. The first rule in the list
        wins for each of them.
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ mb: 2 }}>
        <Button variant="contained" onClick={() => setEditing('new')}>
          New rule
        </Button>
        <Button variant="outlined" onClick={() => setApplying(true)} disabled={rules.length === 0}>
          Apply to existing transactions
        </Button>
      </Stack>
      <RulesList
        list={list}
        rules={rules}
        reordering={reorder.isPending}
        onMove={move}
        onToggle={(rule, enabled) => setEnabled.mutate({ id: rule.id, data: { enabled } })}
        onEdit={setEditing}
        onDelete={setDeleting}
      />
      {editing !== null && (
        <RuleFormDialog
          rule={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            setEditing(null);
            showNotice(`Rule '${saved.name}' saved`);
          }}
        />
      )}
      {applying && (
        <ApplyRulesDialog
          rules={rules}
          onClose={() => setApplying(false)}
          onApplied={(result) => {
            setApplying(false);
            showNotice(`Rules changed ${result.changed} transactions`);
          }}
        />
      )}
      <DeleteRuleDialog rule={deleting} showNotice={showNotice} onDone={() => setDeleting(null)} />
      <Notice notice={notice} onClose={clearNotice} />
    </Box>
  );
}

interface RulesListProps {
  /** The list's query (for its loading and error states) and its rules, in the order they run. */
  list: ComponentProps<typeof ListStatus>['query'];
  rules: readonly RuleDto[];
  reordering: boolean;
  onMove: (index: number, by: -1 | 1) => void;
  onToggle: (rule: RuleDto, enabled: boolean) => void;
  onEdit: (rule: RuleDto) => void;
  onDelete: (rule: RuleDto) => void;
}

/** The rules in the order they run (or why there are none to show). */
function RulesList({ list, rules, reordering, onMove, onToggle, onEdit, onDelete }: RulesListProps) {
  return (
    <Paper>
      <ListStatus
        query={list}
        empty={rules.length === 0}
        loadingLabel="Loading rules"
        errorText="Failed to fetch rules"
        emptyText="No rules yet. Create one to categorise imports automatically."
      />
      {rules.length > 0 && (
        <List aria-label="Rules">
          {rules.map((rule, i) => (
            <RuleRow
              key={rule.id}
              rule={rule}
              first={i === 0}
              last={i === rules.length - 1}
              reordering={reordering}
              onMove={(by) => onMove(i, by)}
              onToggle={(enabled) => onToggle(rule, enabled)}
              onEdit={() => onEdit(rule)}
              onDelete={() => onDelete(rule)}
            />
          ))}
        </List>
      )}
    </Paper>
  );
}

interface RuleRowProps {
  rule: RuleDto;
  first: boolean;
  last: boolean;
  reordering: boolean;
  onMove: (by: -1 | 1) => void;
  onToggle: (enabled: boolean) => void;
  onEdit: () => void;
  onDelete: () => void;
}

/** One rule: move up and down, what it does, its switch, Edit and Delete. */
function RuleRow({ rule, first, last, reordering, onMove, onToggle, onEdit, onDelete }: RuleRowProps) {
  const home = useHomeCurrency();
  return (
    <ListItem divider sx={{ gap: 1, flexWrap: { xs: 'wrap', sm: 'nowrap' }, opacity: rule.enabled ? 1 : 0.6 }}>
      <Stack direction="column">
        <IconButton
          size="small"
          aria-label={`Move ${rule.name} up`}
          disabled={first || reordering}
          onClick={() => onMove(-1)}
        >
          <ArrowUpwardIcon fontSize="small" />
        </IconButton>
        <IconButton
          size="small"
          aria-label={`Move ${rule.name} down`}
          disabled={last || reordering}
          onClick={() => onMove(1)}
        >
          <ArrowDownwardIcon fontSize="small" />
        </IconButton>
      </Stack>
      <ListItemText
        primary={rule.name}
        secondary={`If ${describeConditions(rule.conditions, home)}, set ${describeActions(rule.actions)} · priority ${rule.priority}`}
        sx={{ overflowWrap: 'break-word' }}
      />
      <Tooltip title={rule.enabled ? 'Enabled' : 'Disabled'}>
        <Switch
          checked={rule.enabled}
          slotProps={{ input: { 'aria-label': `${rule.name} enabled` } }}
          onChange={(e) => onToggle(e.target.checked)}
        />
      </Tooltip>
      <Button size="small" onClick={onEdit} aria-label={`Edit ${rule.name}`}>
        Edit
      </Button>
      <Button size="small" color="error" onClick={onDelete} aria-label={`Delete ${rule.name}`}>
        Delete
      </Button>
    </ListItem>
  );
}

/**
 * A rule's switch. It moves at once (the cache is updated before the call), and back if the call
 * fails. A fetch of the list still running (the route's loader) is dropped, not waited for: its
 * answer predates the change, and waiting would leave the switch where it was meanwhile.
 */
function useEnabledSwitch(showNotice: ReturnType<typeof useNotice>[1]) {
  const utils = trpc.useUtils();
  return trpc.rules.update.useMutation({
    onMutate: async ({ id, data }) => {
      const previous = utils.rules.list.getData();
      utils.rules.list.setData(undefined, (list) =>
        list?.map((r) => (r.id === id && data.enabled !== undefined ? { ...r, enabled: data.enabled } : r)),
      );
      await utils.rules.list.cancel(undefined, { revert: false });
      return { previous };
    },
    onError: (error, _input, context) => {
      if (context?.previous) utils.rules.list.setData(undefined, context.previous);
      showNotice(refusalMessage(error, 'Failed to update rule'), 'error');
    },
    onSettled: () => utils.rules.list.invalidate(),
  });
}

/** Delete with confirmation; the transactions a rule already changed stay as they are. */
function DeleteRuleDialog({
  rule,
  showNotice,
  onDone,
}: {
  rule: RuleDto | null;
  showNotice: ReturnType<typeof useNotice>[1];
  onDone: () => void;
}) {
  const utils = trpc.useUtils();
  const remove = trpc.rules.delete.useMutation({ onSuccess: () => utils.rules.list.invalidate() });
  return (
    <ConfirmDialog
      open={rule !== null}
      title="Delete rule"
      message={`Are you sure you want to delete the rule '${rule?.name ?? ''}'? Transactions it already changed stay as they are.`}
      confirmLabel="Delete"
      destructive
      busy={remove.isPending}
      onCancel={onDone}
      onConfirm={() => {
        if (!rule) return;
        remove.mutate(
          { id: rule.id },
          {
            onSuccess: (res) => showNotice(res.message),
            onError: (err) => showNotice(refusalMessage(err, 'Failed to delete rule'), 'error'),
            onSettled: onDone,
          },
        );
      }}
    />
  );
}
