import { Button, Menu } from '@mantine/core';
import { shareLinks } from './shareLinks.ts';

/** Shares a short URL to Facebook, Twitter, WhatsApp, LinkedIn or by e-mail, in a new tab. */
export function ShareMenu({ shortUrl }: { shortUrl: string }) {
  return (
    // Without the focus placeholder: a focusable child with no role breaks the menu's ARIA
    // structure (axe: aria-required-children); focus goes to the first network instead.
    <Menu position="bottom-end" withinPortal withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <Button variant="default" aria-label={`Share ${shortUrl}`}>
          Share
        </Button>
      </Menu.Target>
      <Menu.Dropdown aria-label={`Share ${shortUrl}`}>
        {shareLinks(shortUrl).map((link) => (
          <Menu.Item
            key={link.network}
            component="a"
            href={link.href}
            target="_blank"
            rel="noopener noreferrer"
          >
            {link.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
