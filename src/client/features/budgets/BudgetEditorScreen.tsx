import { Typography } from '@mui/material';

export function BudgetEditorScreen() {
  return (
    <Typography variant="h1" gutterBottom>
      Create Budget
    </Typography>
  );
}
