import { Typography } from '@mui/material';

export function UploadScreen() {
  return (
    <Typography variant="h1" gutterBottom>
      Upload CSV
    </Typography>
  );
}
