import { Typography } from '@mui/material';

export function CategoriesScreen() {
  return (
    <Typography variant="h1" gutterBottom>
      Categories
    </Typography>
  );
}
