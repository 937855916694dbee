import { alpha, Box, Button, Card, CardActionArea, CardActions, CardContent, Typography } from '@mui/material';
import type { BudgetDto, LineItemDto } from '../../../shared/schemas/budgets';

interface BudgetCardProps {
  budget: BudgetDto;
  lineItems: LineItemDto[];
  selected: boolean;
  onSelect: () => void;
  onEdit: () => void;
  onCopy: () => void;
  onDelete: () => void;
}

/** One budget: name and dates (pressing the card selects it), with Edit, Copy and Delete. */
export function BudgetCard({ budget, lineItems, selected, onSelect, onEdit, onCopy, onDelete }: BudgetCardProps) {
  const headingId = `budget-${budget.id}-name`;
  return (
    <Card
      component="article"
      aria-labelledby={headingId}
      variant="outlined"
      sx={{
        display: 'flex',
        flexDirection: 'column',
        borderWidth: 2,
        borderColor: selected ? 'primary.main' : 'divider',
        minWidth: 0,
      }}
    >
      <CardActionArea
        onClick={onSelect}
        aria-pressed={selected}
        aria-label={`Select budget ${budget.name}`}
        sx={{
          flexGrow: 1,
          // Only the selectable part is tinted: the buttons below keep the plain card colour (contrast).
          bgcolor: selected ? (theme) => alpha(theme.palette.primary.main, 0.08) : undefined,
        }}
      >
        <CardContent>
          <Typography variant="h3" component="h2" id={headingId} gutterBottom sx={{ overflowWrap: 'break-word' }}>
            {budget.name}
          </Typography>
          <Box
            component="dl"
            sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 1.5, rowGap: 0.25 }}
          >
            <Typography component="dt" variant="body2" color="text.secondary">
              Start Date
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0 }}>
              {budget.startDate}
            </Typography>
            <Typography component="dt" variant="body2" color="text.secondary">
              End Date
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0 }}>
              {budget.endDate}
            </Typography>
            <Typography component="dt" variant="body2" color="text.secondary">
              Line items
            </Typography>
            <Typography component="dd" variant="body2" sx={{ m: 0 }}>
              {lineItems.length}
            </Typography>
          </Box>
          {selected && (
            <Typography variant="caption" color="primary" sx={{ display: 'block', mt: 1, fontWeight: 600 }}>
              Selected
            </Typography>
          )}
        </CardContent>
      </CardActionArea>
      <CardActions sx={{ flexWrap: 'wrap', gap: 0.5, '& > :not(style) ~ :not(style)': { ml: 0 } }}>
        <Button size="small" onClick={onEdit} aria-label={`Edit Budget ${budget.name}`}>
          Edit Budget
        </Button>
        <Button size="small" onClick={onCopy} aria-label={`Copy Budget ${budget.name}`}>
          Copy Budget
        </Button>
        <Button size="small" color="error" onClick={onDelete} aria-label={`Delete budget ${budget.name}`}>
          Delete
        </Button>
      </CardActions>
    </Card>
  );
}
