import { Box, CircularProgress, Typography } from '@mui/material';

/** 'Loading...' centred on the page, shown while the authentication state loads. */
export function LoadingScreen() {
  return (
    <Box
      sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', gap: 2 }}
      role="status"
      aria-live="polite"
    >
      <CircularProgress size={24} aria-hidden />
      <Typography>Loading...</Typography>
    </Box>
  );
}
