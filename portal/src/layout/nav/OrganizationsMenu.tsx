import { Button, Menu } from '@mantine/core';
import { Link } from 'react-router-dom';
import { LINK_STYLE } from './linkStyle.ts';
import { useMyOrganizationsQuery } from '../../data/organizations-query.ts';
import { href, paths } from '../../routes/paths.ts';

/** The organizations dropdown for developers; 'Create Organization' when teams are allowed. */
export function OrganizationsMenu({ canCreate }: { canCreate: boolean }) {
  const organizations = (useMyOrganizationsQuery().data ?? []).filter((org) => !org.archived);
  return (
    <Menu position="bottom-start" width={240}>
      <Menu.Target>
        <Button {...LINK_STYLE} rightSection={<span aria-hidden="true">▾</span>}>
          Organizations
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {organizations.length === 0 && <Menu.Label>No organizations yet</Menu.Label>}
        {organizations.map((org) => (
          <Menu.Item key={org.id} component={Link} to={href('org.dashboard', { org: org.slug })}>
            {org.name}
          </Menu.Item>
        ))}
        {canCreate && (
          <>
            <Menu.Divider />
            <Menu.Item component={Link} to={paths['org.onboarding']}>
              Create Organization
            </Menu.Item>
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
