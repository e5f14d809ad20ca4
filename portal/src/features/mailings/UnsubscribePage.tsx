import {
  Alert,
  Anchor,
  Button,
  Container,
  Group,
  Paper,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import {
  useMailingsByLinkMutation,
  type MailingsByLinkResult,
} from '../../data/mailings/mailings-by-link-mutation.ts';
import { useSetMyMailingsMutation } from '../../data/mailings/my-mailings-mutation.ts';
import { useMyMailingsQuery } from '../../data/mailings/my-mailings-query.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { loginPathFor, paths } from '../../routes/paths.ts';
import { useViewer } from '../../state/appState.ts';

export const LINK_INVALID =
  'This unsubscribe link is not valid. Copy the whole link from the e-mail, or log in and change it here.';
export const LINK_FAILED = 'We could not change your e-mail settings. Please try again.';

/**
 * /app/unsubscribe: product e-mails stop with one click. A product e-mail's link carries the
 * recipient's token, which works without a login; a signed-in person without one switches their
 * own. Opening the link changes nothing by itself: mail scanners open links too.
 */
export default function UnsubscribePage() {
  const { productName } = useConfig();
  usePageTitle('Unsubscribe', productName);
  const token = useSearchParams()[0].get('token');
  return (
    <Container size="sm" py="xl">
      <Title order={1}>E-mails from {productName}</Title>
      <Paper withBorder p="lg" mt="lg" radius="md">
        {token ? <ByLink token={token} /> : <OwnAccount />}
      </Paper>
    </Container>
  );
}

function ByLink({ token }: { token: string }) {
  const change = useMailingsByLinkMutation(token);
  const [result, setResult] = useState<MailingsByLinkResult | null>(null);
  const apply = (receive: boolean) =>
    change.mutate(receive, { onSuccess: (answer) => setResult(answer) });
  const refused = change.error != null;
  const invalid = refused && 'status' in change.error && change.error.status === 404;

  return (
    <Stack gap="md">
      {result == null ? (
        <Text>
          Stop product news, tips and offers from us? Account and billing e-mails still arrive.
        </Text>
      ) : (
        <Text role="status">
          {result.receivesMailings
            ? `${result.email} receives product e-mails again.`
            : `${result.email} will no longer receive product e-mails.`}
        </Text>
      )}
      {refused && (
        <Alert color="red" title="Not changed" role="alert">
          {invalid ? LINK_INVALID : LINK_FAILED}
        </Alert>
      )}
      <Group>
        {result?.receivesMailings === false ? (
          <Button variant="default" loading={change.isPending} onClick={() => apply(true)}>
            Resubscribe
          </Button>
        ) : (
          <Button loading={change.isPending} onClick={() => apply(false)}>
            Unsubscribe
          </Button>
        )}
        <Anchor component={Link} to={paths.homepage}>
          Back to the homepage
        </Anchor>
      </Group>
    </Stack>
  );
}

function OwnAccount() {
  const viewer = useViewer();
  const mailings = useMyMailingsQuery();
  const change = useSetMyMailingsMutation();
  if (viewer == null) {
    return (
      <Stack gap="sm">
        <Text>
          Use the unsubscribe link at the bottom of any of our e-mails, or log in to change your
          e-mail settings here.
        </Text>
        <Group>
          <Button component={Link} to={loginPathFor(paths.unsubscribe)}>
            Log in
          </Button>
        </Group>
      </Stack>
    );
  }
  if (mailings.isPending) return <Text role="status">Loading your e-mail settings…</Text>;
  if (mailings.isError) {
    return (
      <Alert color="red" title="Your e-mail settings could not be loaded" role="alert">
        <Button mt="sm" variant="default" onClick={() => void mailings.refetch()}>
          Try again
        </Button>
      </Alert>
    );
  }
  return (
    <Stack gap="sm">
      <Switch
        label="Product news, tips and offers"
        description={`Sent to ${viewer.email}. Account and billing e-mails always arrive.`}
        checked={mailings.data}
        disabled={change.isPending}
        onChange={(event) => change.mutate(event.currentTarget.checked)}
      />
      {change.isSuccess && (
        <Text role="status" size="sm">
          {change.data
            ? 'You receive product e-mails again.'
            : 'You will no longer receive product e-mails.'}
        </Text>
      )}
    </Stack>
  );
}
