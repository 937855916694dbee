import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
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
  Menu,
  Toolbar,
  Typography,
} from '@mui/material';
import { useState } from 'react';
import { useAuth } from '../lib/auth';
import { NAV_LINKS } from '../routes';
import { ButtonLink, ListItemLink, MenuItemLink } from './RouterLinks';

export { NAV_LINKS };

/**
 * A screen's link is current on that screen and the pages under its path (a month's plan at /plan/2024-05),
 * whatever its URL remembers (filters, a selection); the root's link only on the root, which every path is under.
 */
function active(to: string) {
  return { exact: to === '/', includeSearch: false } as const;
}
/** The `wide` screens: inline from the widest breakpoint, under More below it. */
const WIDE_ONLY = { xs: 'none', xxl: 'inline-flex' };
const NARROW_ONLY = { xs: 'flex', xxl: 'none' };
const CURRENT_SX = { bgcolor: 'rgba(0,0,0,0.28)', textDecoration: 'underline', textUnderlineOffset: '4px' };

/** Title, the inline links with a More menu, a welcome with the username and Logout; a drawer below 1200 px. */
export function NavBar() {
  const { user, signOut } = useAuth();
  const [open, setOpen] = useState(false);
  const welcome = `Welcome, ${user?.username ?? ''}`;

  return (
    <AppBar position="sticky" component="header">
      <Toolbar sx={{ gap: 1 }}>
        <IconButton
          color="inherit"
          edge="start"
          aria-label="Open navigation"
          onClick={() => setOpen(true)}
          sx={{ display: { xs: 'inline-flex', xl: 'none' } }}
        >
          <MenuIcon />
        </IconButton>
        <Typography variant="h6" component="div" sx={{ fontWeight: 700, whiteSpace: 'nowrap', mr: 1 }}>
          Budget Tracker
        </Typography>
        <InlineLinks />
        <Box sx={{ flexGrow: { xs: 1, xl: 0 } }} />
        <Typography
          variant="body2"
          data-testid="welcome"
          sx={{
            display: { xs: 'none', sm: 'block' },
            whiteSpace: 'nowrap',
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            maxWidth: 240,
            minWidth: '4em',
          }}
        >
          {welcome}
        </Typography>
        <Button color="inherit" variant="outlined" onClick={() => void signOut()} sx={{ ml: 1, flexShrink: 0 }}>
          Logout
        </Button>
      </Toolbar>
      <NavDrawer open={open} onClose={() => setOpen(false)} welcome={welcome} />
    </AppBar>
  );
}

/** The wide screens' links: the everyday screens inline, the rest under More (see `NavPlace`). */
function InlineLinks() {
  return (
    <Box
      component="nav"
      aria-label="Main"
      sx={{ display: { xs: 'none', xl: 'flex' }, gap: 0.25, flexGrow: 1, flexShrink: 0 }}
    >
      {NAV_LINKS.filter((link) => link.place !== 'more').map((link) => (
        <ButtonLink
          key={link.to}
          to={link.to}
          color="inherit"
          activeOptions={active(link.to)}
          activeProps={{ 'aria-current': 'page', sx: CURRENT_SX }}
          sx={{ px: 1, minWidth: 0, whiteSpace: 'nowrap', display: link.place === 'wide' ? WIDE_ONLY : undefined }}
        >
          {link.label}
        </ButtonLink>
      ))}
      <MoreMenu />
    </Box>
  );
}

function MoreMenu() {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Button
        color="inherit"
        id="nav-more"
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : 'false'}
        aria-controls={anchor ? 'nav-more-menu' : undefined}
        endIcon={<ExpandMoreIcon />}
        onClick={(event) => setAnchor(event.currentTarget)}
        sx={{ px: 1, minWidth: 0 }}
      >
        More
      </Button>
      <Menu
        id="nav-more-menu"
        anchorEl={anchor}
        open={anchor !== null}
        onClose={() => setAnchor(null)}
        slotProps={{ list: { 'aria-labelledby': 'nav-more' } }}
      >
        {NAV_LINKS.filter((link) => link.place !== 'bar').map((link) => (
          <MenuItemLink
            key={link.to}
            to={link.to}
            sx={{ display: link.place === 'wide' ? NARROW_ONLY : undefined }}
            activeOptions={active(link.to)}
            activeProps={{ selected: true, 'aria-current': 'page' }}
            onClick={() => setAnchor(null)}
          >
            {link.label}
          </MenuItemLink>
        ))}
      </Menu>
    </>
  );
}

/** Every screen's link, for narrow screens. */
function NavDrawer({ open, onClose, welcome }: { open: boolean; onClose: () => void; welcome: string }) {
  // A link in the drawer moves focus to the new page's heading: the drawer must not pull it back.
  const [leaving, setLeaving] = useState(false);
  return (
    <Drawer
      open={open}
      onClose={onClose}
      ModalProps={{ disableRestoreFocus: leaving }}
      slotProps={{ transition: { onEnter: () => setLeaving(false) } }}
    >
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
                activeOptions={active(link.to)}
                activeProps={{ selected: true, 'aria-current': 'page' }}
                onClick={() => {
                  setLeaving(true);
                  onClose();
                }}
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
