import { Box, Text } from '@mantine/core';
import { adsShown } from '@shortlane/shared/ads.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { useAppState } from '../../state/appState.ts';
import { readStrictPrivate } from '../../state/privacyCookie.ts';
import type { AdProvider } from './adProvider.ts';
import { houseAds } from './HouseAds.tsx';

/**
 * The shell's one ad slot: for visitors who are not subscribed, with consent only (adsShown),
 * never while the visitor's state is still loading (a subscriber must not see one flash by).
 */
export function AdSlot({ slot, provider = houseAds }: { slot: string; provider?: AdProvider }) {
  const { adsEnabled } = useConfig();
  const { status, viewer, privacy } = useAppState();
  const shown =
    status === 'ready' &&
    adsShown({
      adsEnabled,
      subscribed: viewer?.subscribed ?? false,
      cookiesAccepted: privacy.cookiesAccepted,
      strictPrivate: readStrictPrivate(document.cookie),
    });
  if (!shown) return null;
  return (
    <Box
      component="aside"
      aria-label="Advertisement"
      maw="80rem"
      mx="auto"
      px="md"
      py="sm"
      w="100%"
    >
      <Text size="xs" c="gray.7" mb={4}>
        Advertisement
      </Text>
      <provider.Slot slot={slot} />
    </Box>
  );
}
