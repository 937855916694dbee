import { Typography } from '@mui/material';

export function EnvelopesScreen() {
  return (
    <Typography variant="h1" gutterBottom>
      Envelopes
    </Typography>
  );
}
