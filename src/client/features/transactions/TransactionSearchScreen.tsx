import { Typography } from '@mui/material';

export function TransactionSearchScreen() {
  return (
    <Typography variant="h1" gutterBottom>
      Transaction Search
    </Typography>
  );
}
