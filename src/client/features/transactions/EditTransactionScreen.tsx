import { Typography } from '@mui/material';

export function EditTransactionScreen() {
  return (
    <Typography variant="h1" gutterBottom>
      Edit Transaction
    </Typography>
  );
}
