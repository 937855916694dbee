import { Box, Button, Card, CardActionArea, CardActions, CardContent, Chip, Stack, Typography } from '@mui/material';
import { absCents, formatMoney } from '../../../shared/money';
import type { EnvelopeDto } from '../../../shared/schemas/envelopes';

interface EnvelopeCardProps {
  envelope: EnvelopeDto;
  selected: boolean;
  onSelect: () => void;
  onEdit: () => void;
  onDelete: () => void;
}

/** Id of a card's main button, so focus can return to it when its transactions close. */
export const envelopeButtonId = (id: number) => `envelope-${id}-open`;
const nameId = (id: number) => `envelope-${id}-name`;

/** Total spent: the magnitude of the signed sum in the home currency, red when money went out. */
export function EnvelopeTotal({ cents, currency }: { cents: number; currency?: string | null }) {
  const negative = cents < 0;
  return (
    <Box
      component="span"
      data-negative={negative ? 'true' : 'false'}
      sx={[
        {
          color: negative ? 'error.dark' : 'text.primary',
          fontWeight: 600,
          fontVariantNumeric: 'tabular-nums',
          whiteSpace: 'nowrap',
        },
        negative && ((theme) => theme.applyStyles('dark', { color: theme.palette.error.light })),
      ]}
    >
      {formatMoney(absCents(cents), { currency })}
    </Box>
  );
}

/**
 * One envelope in the grid: its colour as a left accent; the main area is a button that shows
 * the envelope's transactions below the grid; Edit and Delete underneath.
 */
export function EnvelopeCard({ envelope, selected, onSelect, onEdit, onDelete }: EnvelopeCardProps) {
  return (
    <Card
      component="li"
      variant="outlined"
      aria-labelledby={nameId(envelope.id)}
      sx={{
        display: 'flex',
        flexDirection: 'column',
        minWidth: 0,
        borderLeft: `6px solid ${envelope.color}`,
        borderColor: selected ? 'primary.main' : undefined,
        borderLeftColor: envelope.color,
        boxShadow: selected ? (theme) => `0 0 0 1px ${theme.palette.primary.main}` : undefined,
        // Inactive: a dashed outline besides the INACTIVE badge (no fading, which would cost text contrast).
        borderStyle: envelope.isActive ? 'solid' : 'dashed',
        borderLeftStyle: 'solid',
      }}
    >
      <CardActionArea
        id={envelopeButtonId(envelope.id)}
        onClick={onSelect}
        aria-pressed={selected}
        sx={{
          flexGrow: 1,
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'stretch',
          justifyContent: 'flex-start',
        }}
      >
        <EnvelopeSummary envelope={envelope} />
      </CardActionArea>
      <CardActions sx={{ justifyContent: 'flex-end' }}>
        <Button size="small" onClick={onEdit} aria-label={`Edit ${envelope.name}`}>
          Edit
        </Button>
        <Button size="small" color="error" onClick={onDelete} aria-label={`Delete ${envelope.name}`}>
          Delete
        </Button>
      </CardActions>
    </Card>
  );
}

/** What a card shows of its envelope: name (and INACTIVE), description, categories, total and count. */
function EnvelopeSummary({ envelope }: { envelope: EnvelopeDto }) {
  const count = envelope.transactionCount;
  return (
    <CardContent sx={{ display: 'flex', flexDirection: 'column', gap: 1, minWidth: 0 }}>
      <Stack
        direction="row"
        spacing={1}
        sx={{ alignItems: 'flex-start', justifyContent: 'space-between', minWidth: 0 }}
      >
        <Typography
          id={nameId(envelope.id)}
          component="h2"
          variant="h3"
          sx={{ overflowWrap: 'break-word', minWidth: 0 }}
        >
          {envelope.name}
        </Typography>
        {!envelope.isActive && (
          <Chip
            label="INACTIVE"
            size="small"
            sx={{ fontWeight: 700, flexShrink: 0, bgcolor: 'grey.800', color: 'common.white' }}
          />
        )}
      </Stack>
      {envelope.description && (
        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'break-word', whiteSpace: 'pre-line' }}>
          {envelope.description}
        </Typography>
      )}
      <Box component="span" sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
        {envelope.categories.map((category) => (
          <Chip key={category} label={category} size="small" variant="outlined" sx={{ maxWidth: '100%' }} />
        ))}
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', columnGap: 1 }}>
        <Typography variant="body2" color="text.secondary" component="span">
          Total spent:
        </Typography>
        <Typography component="span" variant="h3">
          <EnvelopeTotal cents={envelope.total} currency={envelope.currency} />
        </Typography>
      </Box>
      <Typography variant="body2">{count === 1 ? '1 transaction' : `${count} transactions`}</Typography>
      {envelope.noRate > 0 && (
        <Typography variant="body2" color="warning.dark">
          {`${envelope.noRate} left out of the total: no rate within 7 days`}
        </Typography>
      )}
      <Typography variant="caption" color="text.secondary">
        Transactions are linked automatically by category.
      </Typography>
    </CardContent>
  );
}
