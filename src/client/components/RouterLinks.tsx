import { Button, ListItemButton, MenuItem, Link as MuiLink } from '@mui/material';
import { createLink } from '@tanstack/react-router';

/** MUI components that navigate with TanStack Router (typed `to`, client-side navigation). */
export const ButtonLink = createLink(Button);
export const ListItemLink = createLink(ListItemButton);
export const TextLink = createLink(MuiLink);
export const MenuItemLink = createLink(MenuItem);
