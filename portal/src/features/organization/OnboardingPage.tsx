import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Container,
  Group,
  List,
  Loader,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { canReOnboard } from '@shortlane/shared/permissions.ts';
import { Link, useSearchParams } from 'react-router-dom';
import { PageLoader } from '../../components/PageLoader.tsx';
import {
  type OrganizationWithFacts,
  useOnboardingCountsQuery,
  useOrganizationFactsQuery,
} from '../../data/organization-facts-query.ts';
import { useMyOrganizationsQuery } from '../../data/organizations-query.ts';
import { useUserId } from '../../data/use-user-id.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { href } from '../../routes/paths.ts';
import { useAppState } from '../../state/appState.ts';
import { CreateOrganizationForm } from './CreateOrganizationForm.tsx';
import {
  ONBOARDING_STEPS,
  type OnboardingStep,
  onboardingStorageKey,
  readMarkedDone,
  skipReason,
  writeMarkedDone,
} from './onboarding.ts';
import { organizationUnavailableMessage } from './OrganizationUnavailable.tsx';

/** The pages that do each step's work; each takes only the organization's slug. */
type StepRoute =
  | 'org.settings.domains'
  | 'org.settings.users'
  | 'org.settings.teams'
  | 'org.settings.teams.members';

const STEPS: Record<
  OnboardingStep,
  { title: string; text: string; route: StepRoute | null; action: string | null }
> = {
  domains: {
    title: 'Add domains',
    text: "Add the organization's branded domains so its teams shorten links on them.",
    route: 'org.settings.domains',
    action: 'Add domains',
  },
  users: {
    title: 'Invite users',
    text: 'Invite the people who run the organization with you, each with a role.',
    route: 'org.settings.users',
    action: 'Invite users',
  },
  team: {
    title: 'Create a team',
    text: 'Teams group the people who share links, domains and a plan.',
    route: 'org.settings.teams',
    action: 'Create a team',
  },
  members: {
    title: 'Add members to a team',
    text: 'Add people to a team and choose what each may do there.',
    route: 'org.settings.teams.members',
    action: 'Add members',
  },
  done: {
    title: 'Done',
    text: 'The organization is set up. You can come back to any of these pages from its settings.',
    route: null,
    action: null,
  },
};

const SKIPPED: Record<'marked_done' | 'owner_only' | 'data_exists', string> = {
  marked_done: 'Marked done',
  data_exists: 'Already there',
  owner_only: 'Owner only',
};

function Steps({ organization }: { organization: OrganizationWithFacts }) {
  const userId = useUserId();
  const counts = useOnboardingCountsQuery(organization);
  const [marked, setMarked] = useLocalStorage<OnboardingStep[]>({
    key: onboardingStorageKey(organization.id),
    defaultValue: [],
    getInitialValueInEffect: false,
    serialize: (steps) => writeMarkedDone(new Set(steps)),
    deserialize: (raw) => [...readMarkedDone(raw ?? null)],
  });

  if (counts.isPending) return <Loader size="sm" aria-label="Loading the organization's setup" />;
  if (counts.isError) {
    return (
      <Alert color="red" title="The organization's setup could not be loaded" role="alert">
        <Button variant="light" size="xs" mt="xs" onClick={() => void counts.refetch()}>
          Try again
        </Button>
      </Alert>
    );
  }
  const facts = { isOwner: organization.facts.owner.id === userId, ...counts.data };
  const markedDone = new Set(marked);
  const reasons = ONBOARDING_STEPS.map((step) => ({
    step,
    reason: skipReason(step, facts, markedDone),
  }));
  const current = reasons.find((entry) => entry.reason === null)!.step;
  const details = STEPS[current];
  const number = ONBOARDING_STEPS.indexOf(current) + 1;

  return (
    <Stack gap="lg">
      <List type="ordered" aria-label="Steps">
        {reasons.map(({ step, reason }) => (
          <List.Item key={step} aria-current={step === current ? 'step' : undefined}>
            <Group gap="xs">
              <Text size="sm" fw={step === current ? 700 : 400}>
                {STEPS[step].title}
              </Text>
              {reason && (
                <Badge variant="light" color="gray" size="sm">
                  {SKIPPED[reason]}
                </Badge>
              )}
            </Group>
          </List.Item>
        ))}
      </List>
      <Card withBorder padding="md" component="section" aria-labelledby="onboarding-step-title">
        <Stack gap="sm">
          <Text size="sm" c="gray.7">
            Step {number} of {ONBOARDING_STEPS.length}
          </Text>
          <Title order={2} size="h4" id="onboarding-step-title">
            {details.title}
          </Title>
          <Text size="sm">{details.text}</Text>
          <Group>
            {details.route && details.action && (
              <Button component={Link} to={href(details.route, { org: organization.slug })}>
                {details.action}
              </Button>
            )}
            {current !== 'done' ? (
              <Button variant="default" onClick={() => setMarked([...marked, current])}>
                {current === 'domains' || current === 'users' ? 'Skip this step' : 'Mark as done'}
              </Button>
            ) : (
              <Button component={Link} to={href('org.root', { org: organization.slug })}>
                Open {organization.name}
              </Button>
            )}
          </Group>
        </Stack>
      </Card>
    </Stack>
  );
}

function OrganizationOnboarding({ slug }: { slug: string }) {
  const userId = useUserId();
  const organization = useOrganizationFactsQuery(slug);
  if (organization.isPending) return <PageLoader />;
  if (organization.isError || organization.data === null || userId == null) {
    return (
      <Alert color="red" role="alert">
        {organizationUnavailableMessage(organization.isError)}
      </Alert>
    );
  }
  if (!canReOnboard(organization.data.facts, userId)) {
    return (
      <Alert color="yellow" role="alert" title={organization.data.name}>
        Setting up an organization needs the Profile, Domains, Users, Teams and Members permissions.
      </Alert>
    );
  }
  return (
    <Stack gap="md">
      <Title order={2} size="h3">
        {organization.data.name}
      </Title>
      <Steps organization={organization.data} />
    </Stack>
  );
}

/**
 * /app/organizations/onboarding: create an organization (when the plan allows teams), then
 * walk its set-up steps; `?org={slug}` walks an existing organization's steps again.
 */
export default function OnboardingPage() {
  const { productName } = useConfig();
  usePageTitle('Set up an organization', productName);
  const { teamsAllowed } = useAppState();
  const [search, setSearch] = useSearchParams();
  const slug = search.get('org');
  const organizations = useMyOrganizationsQuery(slug === null);

  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <Title order={1}>Set up an organization</Title>
        {slug !== null ? (
          <OrganizationOnboarding key={slug} slug={slug} />
        ) : (
          <>
            {teamsAllowed ? (
              <CreateOrganizationForm onCreated={(created) => setSearch({ org: created })} />
            ) : (
              <Alert color="blue" role="status">
                Your plan doesn&apos;t allow you to create organizations.
              </Alert>
            )}
            {(organizations.data ?? []).filter((org) => !org.archived).length > 0 && (
              <section aria-labelledby="onboarding-existing">
                <Title order={2} size="h4" id="onboarding-existing">
                  Set up one of your organizations again
                </Title>
                <List mt="xs">
                  {(organizations.data ?? [])
                    .filter((org) => !org.archived)
                    .map((org) => (
                      <List.Item key={org.id}>
                        <Anchor component={Link} to={`?org=${encodeURIComponent(org.slug)}`}>
                          {org.name}
                        </Anchor>
                      </List.Item>
                    ))}
                </List>
              </section>
            )}
          </>
        )}
      </Stack>
    </Container>
  );
}
