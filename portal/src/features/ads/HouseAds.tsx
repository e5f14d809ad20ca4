import { Button, Group, Paper, Text } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useConfig } from '../../lib/servicesContext.ts';
import { paths } from '../../routes/paths.ts';
import type { AdProvider } from './adProvider.ts';

function HouseAd({ slot }: { slot: string }) {
  const { productName } = useConfig();
  return (
    <Paper withBorder radius="md" p="md" data-ad-slot={slot} data-ad-provider="house">
      <Group justify="space-between" gap="sm">
        <Text size="sm">
          <strong>{productName} Pro</strong>: branded domains, link analytics and the API, with no
          ads.
        </Text>
        <Button size="xs" variant="light" component={Link} to={paths['signup.pricing']}>
          See plans
        </Button>
      </Group>
    </Paper>
  );
}

/** Our own ads for upgrades: the default wherever no ad network is configured. */
export const houseAds: AdProvider = { name: 'house', Slot: HouseAd };
