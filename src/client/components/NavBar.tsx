import MenuIcon from '@mui/icons-material/Menu';
import {
  AppBar,
  Box,
  Button,
  Divider,
  Drawer,
  IconButton,
  List,
  ListItem,
  ListItemText,
  Toolbar,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useAuth } from '../lib/auth';
import { NAV_LINKS } from '../routes';
import { ButtonLink, ListItemLink } from './RouterLinks';

export { NAV_LINKS };

/** A screen's link is current on that screen whatever its URL remembers (filters, a selection). */
const ACTIVE = { exact: true, includeSearch: false } as const;

/** Links sized to their labels (a size smaller below `xxl`), so every screen's link fits one bar from the `xl` breakpoint. */
const COMPACT = { minWidth: 0, px: 0.5, whiteSpace: 'nowrap', fontSize: { xl: '0.8125rem', xxl: '0.875rem' } } as const;

/** Title, the links of the screens that have a `nav` label (routes.tsx), a welcome with the username and Logout; a drawer below 1200 px. */
export function NavBar() {
  const { user, signOut } = useAuth();
  const [open, setOpen] = useState(false);
  // A link in the drawer moves focus to the new page's heading: the drawer must not pull it back.
  const [leaving, setLeaving] = useState(false);
  const welcome = `Welcome, ${user?.username ?? ''}`;

  return (
    <AppBar position="sticky" component="header">
      <Toolbar sx={{ gap: 1 }}>
        <IconButton
          color="inherit"
          edge="start"
          aria-label="Open navigation"
          onClick={() => {
            setLeaving(false);
            setOpen(true);
          }}
          sx={{ display: { xs: 'inline-flex', xl: 'none' } }}
        >
          <MenuIcon />
        </IconButton>
        <Typography variant="h6" component="div" sx={{ fontWeight: 700, whiteSpace: 'nowrap', mr: 2 }}>
          Budget Tracker
        </Typography>
        <Box component="nav" aria-label="Main" sx={{ display: { xs: 'none', xl: 'flex' }, gap: 0, flexGrow: 1 }}>
          {NAV_LINKS.map((link) => (
            <ButtonLink
              key={link.to}
              to={link.to}
              color="inherit"
              sx={COMPACT}
              activeOptions={ACTIVE}
              activeProps={{
                'aria-current': 'page',
                sx: {
                  ...COMPACT,
                  bgcolor: 'rgba(0,0,0,0.28)',
                  textDecoration: 'underline',
                  textUnderlineOffset: '4px',
                },
              }}
            >
              {link.label}
            </ButtonLink>
          ))}
        </Box>
        <Box sx={{ flexGrow: { xs: 1, xl: 0 } }} />
        <Typography
          variant="body2"
          sx={{
            display: { xs: 'none', sm: 'block' },
            whiteSpace: 'nowrap',
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            maxWidth: 240,
          }}
          data-testid="welcome"
        >
          {welcome}
        </Typography>
        <Button color="inherit" variant="outlined" onClick={() => void signOut()} sx={{ ml: 1, flexShrink: 0 }}>
          Logout
        </Button>
      </Toolbar>
      <Drawer open={open} onClose={() => setOpen(false)} ModalProps={{ disableRestoreFocus: leaving }}>
        <Box sx={{ width: 260 }} role="presentation">
          <Typography variant="subtitle1" sx={{ px: 2, py: 1.5, fontWeight: 700 }}>
            {welcome}
          </Typography>
          <Divider />
          <List component="nav" aria-label="Main">
            {NAV_LINKS.map((link) => (
              <ListItem key={link.to} disablePadding>
                <ListItemLink
                  to={link.to}
                  activeOptions={ACTIVE}
                  activeProps={{ selected: true, 'aria-current': 'page' }}
                  onClick={() => {
                    setLeaving(true);
                    setOpen(false);
                  }}
                >
                  <ListItemText primary={link.label} />
                </ListItemLink>
              </ListItem>
            ))}
          </List>
        </Box>
      </Drawer>
    </AppBar>
  );
}
