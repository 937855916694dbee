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
        <DesktopLinks />
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
      <NavDrawer
        open={open}
        welcome={welcome}
        restoreFocus={!leaving}
        onClose={() => setOpen(false)}
        onLeave={() => {
          setLeaving(true);
          setOpen(false);
        }}
      />
    </AppBar>
  );
}

/** The links in the bar itself, from 1200 px. */
function DesktopLinks() {
  return (
    <Box component="nav" aria-label="Main" sx={{ display: { xs: 'none', xl: 'flex' }, gap: 0.5, flexGrow: 1 }}>
      {NAV_LINKS.map((link) => (
        <ButtonLink
          key={link.to}
          to={link.to}
          color="inherit"
          activeOptions={ACTIVE}
          activeProps={{
            'aria-current': 'page',
            sx: { bgcolor: 'rgba(0,0,0,0.28)', textDecoration: 'underline', textUnderlineOffset: '4px' },
          }}
        >
          {link.label}
        </ButtonLink>
      ))}
    </Box>
  );
}

interface NavDrawerProps {
  open: boolean;
  welcome: string;
  /** Focus goes back to the menu button on closing (not when a link moves it to the new page). */
  restoreFocus: boolean;
  onClose: () => void;
  /** A link was followed: the drawer closes, leaving focus to the new page. */
  onLeave: () => void;
}

/** The links in a drawer, below 1200 px. */
function NavDrawer({ open, welcome, restoreFocus, onClose, onLeave }: NavDrawerProps) {
  return (
    <Drawer open={open} onClose={onClose} ModalProps={{ disableRestoreFocus: !restoreFocus }}>
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
                onClick={onLeave}
              >
                <ListItemText primary={link.label} />
              </ListItemLink>
            </ListItem>
          ))}
        </List>
      </Box>
    </Drawer>
  );
}
