import { Button, Menu } from '@mantine/core';
import { Link } from 'react-router-dom';
import { LINK_STYLE } from './linkStyle.ts';
import { paths } from '../../routes/paths.ts';
import { FEATURE_LINKS } from './featureLinks.ts';

export function FeaturesMenu() {
  return (
    <Menu position="bottom-start" width={220}>
      <Menu.Target>
        <Button {...LINK_STYLE} rightSection={<span aria-hidden="true">▾</span>}>
          Features
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {FEATURE_LINKS.map((link) => (
          <Menu.Item key={link.name} component={Link} to={paths[link.name]}>
            {link.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
