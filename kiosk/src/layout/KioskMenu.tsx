import { Menu } from 'react-admin';

/** The kiosk's sections in the spec's order of importance: people, links, figures, settings. */
export function KioskMenu() {
  return (
    <Menu>
      <Menu.ResourceItem name="users" />
      <Menu.ResourceItem name="organizations" />
      <Menu.ResourceItem name="teams" />
      <Menu.ResourceItem name="support-requests" />
      <Menu.ResourceItem name="aliases" />
      <Menu.ResourceItem name="long-urls" />
      <Menu.Item to="/stats/system" primaryText="System stats" />
      <Menu.Item to="/stats/tinyurl" primaryText="Link stats" />
      <Menu.ResourceItem name="domains" />
      <Menu.ResourceItem name="banned_domains" />
      <Menu.ResourceItem name="ips" />
      <Menu.ResourceItem name="password_dictionary" />
      <Menu.ResourceItem name="tld_overprice" />
      <Menu.ResourceItem name="cloudflare/zones" />
      <Menu.ResourceItem name="announcements" />
      <Menu.ResourceItem name="surveys" />
      <Menu.ResourceItem name="access-invitations" />
      <Menu.ResourceItem name="quote-requests" />
      <Menu.ResourceItem name="webhooks" />
      <Menu.ResourceItem name="api-tokens" />
    </Menu>
  );
}
