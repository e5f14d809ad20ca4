import { Alert, Button, Container, List, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useSetMyAffiliateLinksMutation } from '../../data/affiliate-links/my-affiliate-links-mutation.ts';
import { useMyAffiliateLinksQuery } from '../../data/affiliate-links/my-affiliate-links-query.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { loginPathFor, paths } from '../../routes/paths.ts';
import { useViewer } from '../../state/appState.ts';

/**
 * /app/affiliate-link (affiliateOptionPop): what affiliate links are, and the person's own choice,
 * kept as status flag 4 ("no affiliate") on their profile. Staff may set the same flag in the
 * kiosk; the page always shows the stored answer.
 */
export default function AffiliateLinkPage() {
  const { productName } = useConfig();
  usePageTitle('Affiliate links', productName);
  return (
    <Container size="sm" py="xl">
      <Title order={1}>Affiliate links</Title>
      <Stack gap="sm" mt="md">
        <Text>
          When a short link leads to a shop that runs an affiliate programme, {productName} may open
          it as an affiliate link: the shop then pays us a small commission on what the visitor
          buys. It keeps the free plan free.
        </Text>
        <List size="sm" spacing={4}>
          <List.Item>The visitor lands on the same page and pays the same price.</List.Item>
          <List.Item>Your link, its address and its analytics do not change.</List.Item>
          <List.Item>You can say no for all your links at any time.</List.Item>
        </List>
      </Stack>
      <Paper withBorder p="lg" mt="lg" radius="md">
        <OwnChoice />
      </Paper>
    </Container>
  );
}

function OwnChoice() {
  const viewer = useViewer();
  const allowed = useMyAffiliateLinksQuery();
  const change = useSetMyAffiliateLinksMutation();
  if (viewer == null) {
    return (
      <Stack gap="sm">
        <Text>Log in to choose whether your links may become affiliate links.</Text>
        <Button w="fit-content" component={Link} to={loginPathFor(paths.affiliateOptionPop)}>
          Log in
        </Button>
      </Stack>
    );
  }
  if (allowed.isPending) return <Text role="status">Loading your setting…</Text>;
  if (allowed.isError) {
    return (
      <Alert color="red" title="Your setting could not be loaded" role="alert">
        <Button mt="sm" variant="default" onClick={() => void allowed.refetch()}>
          Try again
        </Button>
      </Alert>
    );
  }
  return (
    <Stack gap="sm">
      <Switch
        label="Allow affiliate links on my short links"
        description={
          allowed.data
            ? 'Links to shops with an affiliate programme may open as affiliate links.'
            : 'None of your links open as affiliate links.'
        }
        checked={allowed.data}
        disabled={change.isPending}
        onChange={(event) => change.mutate(event.currentTarget.checked)}
      />
      {change.isSuccess && (
        <Text role="status" size="sm">
          {change.data
            ? 'Your links may open as affiliate links again.'
            : 'Your links will no longer open as affiliate links.'}
        </Text>
      )}
    </Stack>
  );
}
