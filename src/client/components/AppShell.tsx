import { Box, Container } from '@mui/material';
import type { ReactNode } from 'react';
import { NavBar } from './NavBar';

export function AppShell({ children }: { children: ReactNode }) {
  return (
    <Box sx={{ minHeight: '100vh', bgcolor: 'background.default' }}>
      <NavBar />
      <Container component="main" maxWidth={false} sx={{ py: { xs: 2, md: 3 }, px: { xs: 1.5, sm: 2, md: 3 }, maxWidth: 1600 }}>
        {children}
      </Container>
    </Box>
  );
}
