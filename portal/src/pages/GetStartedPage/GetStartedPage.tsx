import {
  Alert,
  Anchor,
  Button,
  Container,
  Group,
  List,
  Paper,
  Progress,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { MESSAGES } from '@shortlane/shared/messages.ts';
import { Link } from 'react-router-dom';
import { LoadingFrame } from '../../components/LoadingFrame.tsx';
import { useOnboardingProgressQuery } from '../../data/onboarding-progress-query.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { countDone, GET_STARTED_STEPS } from './getStartedSteps.ts';

/**
 * /app/get-started: the first steps, each ticked from the account's real data
 * (onboarding_progress), with why it helps and where it is done.
 */
export default function GetStartedPage() {
  const { productName } = useConfig();
  usePageTitle('Get started', productName);
  const progress = useOnboardingProgressQuery();
  const total = GET_STARTED_STEPS.length;
  return (
    <Container size="sm" py="xl">
      <Stack gap="lg">
        <Title order={1}>Get started</Title>
        {progress.isPending ? (
          <LoadingFrame label="Loading your first steps" minHeight={420} />
        ) : progress.isError ? (
          <Alert color="red" role="alert" title="Your first steps could not be loaded">
            <Text size="sm">{MESSAGES.somethingWentWrong}</Text>
            <Button mt="sm" size="xs" onClick={() => void progress.refetch()}>
              Try again
            </Button>
          </Alert>
        ) : (
          <>
            <Stack gap={4}>
              <Text fw={500} id="get-started-progress">
                {countDone(progress.data)} of {total} done
              </Text>
              <Progress.Root size="lg">
                <Progress.Section
                  value={(countDone(progress.data) / total) * 100}
                  aria-labelledby="get-started-progress"
                />
              </Progress.Root>
            </Stack>
            <List listStyleType="none" spacing="sm" aria-label="First steps">
              {GET_STARTED_STEPS.map((step) => {
                const done = progress.data[step.key];
                return (
                  <List.Item key={step.key} data-done={done}>
                    <Paper withBorder p="md">
                      <Group align="flex-start" wrap="nowrap">
                        <ThemeIcon
                          radius="xl"
                          color={done ? 'teal' : 'gray'}
                          variant={done ? 'filled' : 'light'}
                          aria-hidden="true"
                        >
                          {done ? '✓' : '·'}
                        </ThemeIcon>
                        <Stack gap={4}>
                          <Text fw={600}>
                            {step.title}{' '}
                            <Text span size="sm" c={done ? 'teal.8' : 'dimmed'}>
                              ({done ? 'done' : 'to do'})
                            </Text>
                          </Text>
                          <Text size="sm">{step.why}</Text>
                          {!done && (
                            <Anchor component={Link} to={step.to} size="sm">
                              {step.action}
                            </Anchor>
                          )}
                        </Stack>
                      </Group>
                    </Paper>
                  </List.Item>
                );
              })}
            </List>
          </>
        )}
      </Stack>
    </Container>
  );
}
