import { Typography } from '@mui/material';

export function BudgetsScreen() {
  return (
    <Typography variant="h1" gutterBottom>
      Budgets
    </Typography>
  );
}
