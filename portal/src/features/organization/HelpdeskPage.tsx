import {
  Alert,
  Badge,
  Button,
  Card,
  Container,
  Group,
  Loader,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import {
  SUPPORT_MESSAGE_MAX,
  SUPPORT_SUBJECT_MAX,
  supportRequestSchema,
} from '@shortlane/shared/schemas/organization-users.ts';
import { useParams } from 'react-router-dom';
import { PageLoader } from '../../components/PageLoader.tsx';
import {
  type SupportRequest,
  useCreateSupportRequestMutation,
  useSupportRequestsQuery,
} from '../../data/helpdesk/support-requests.ts';
import { useOrganizationBySlugQuery } from '../../data/links-list-query.ts';
import { apiFailureMessage, validateWith } from '../../lib/forms.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { useSuccessNotice } from '../settings/useSuccessNotice.ts';
import { OrganizationUnavailable } from './OrganizationUnavailable.tsx';

export const STATE_LABELS: Record<SupportRequest['state'], { label: string; color: string }> = {
  open: { label: 'Open', color: 'blue' },
  answered: { label: 'Answered', color: 'teal' },
  closed: { label: 'Closed', color: 'gray' },
};

function NewRequestForm({ organizationId }: { organizationId: string }) {
  const create = useCreateSupportRequestMutation(organizationId);
  const success = useSuccessNotice();
  const form = useForm<{ subject: string; message: string }>({
    initialValues: { subject: '', message: '' },
    validate: validateWith(supportRequestSchema),
  });
  const submit = form.onSubmit(async (values) => {
    try {
      await create.mutateAsync(supportRequestSchema.parse(values));
      success('Your request has been sent. Our support team will answer here.');
      form.reset();
    } catch (error) {
      form.setErrors({ subject: apiFailureMessage(error) });
    }
  });
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="helpdesk-new">
      <form onSubmit={submit} noValidate aria-busy={create.isPending} aria-label="Ask for support">
        <Stack gap="sm">
          <Title order={2} size="h4" id="helpdesk-new">
            New request
          </Title>
          <TextInput
            label="Subject"
            required
            maxLength={SUPPORT_SUBJECT_MAX}
            key={form.key('subject')}
            {...form.getInputProps('subject')}
          />
          <Textarea
            label="Message"
            required
            autosize
            minRows={4}
            maxLength={SUPPORT_MESSAGE_MAX}
            key={form.key('message')}
            {...form.getInputProps('message')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={create.isPending}>
              Send request
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

function RequestItem({ request }: { request: SupportRequest }) {
  const state = STATE_LABELS[request.state];
  return (
    <Card withBorder padding="md" component="li" aria-label={request.subject}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Text fw={600}>{request.subject}</Text>
          <Badge color={state.color} variant="light">
            {state.label}
          </Badge>
        </Group>
        <Text size="sm" c="gray.7">
          {request.authorName} · {new Date(request.createdAt).toLocaleString()}
        </Text>
        <Text style={{ whiteSpace: 'pre-wrap' }}>{request.message}</Text>
        {request.answer && (
          <Alert color="teal" title="Support answered">
            <Text style={{ whiteSpace: 'pre-wrap' }}>{request.answer}</Text>
          </Alert>
        )}
      </Stack>
    </Card>
  );
}

/**
 * organization/{org}/helpdesk: the organization's requests to support. Its owner and users ask
 * (subject, message) and follow each request's state; staff answer in the kiosk. The table's
 * policies decide who reads and writes.
 */
export default function HelpdeskPage() {
  const { org = '' } = useParams();
  const { productName } = useConfig();
  usePageTitle('Helpdesk', productName);
  const organization = useOrganizationBySlugQuery(org);
  const organizationId = organization.data?.id ?? null;
  const requests = useSupportRequestsQuery(organizationId);

  if (organization.isPending) return <PageLoader />;
  if (organization.isError || organization.data === null) {
    return <OrganizationUnavailable title="Helpdesk" loadFailed={organization.isError} />;
  }
  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <div>
          <Title order={1}>Helpdesk</Title>
          <Text mt="xs" c="gray.7">
            Ask our support team for help. Everyone in the organization sees its requests and their
            answers.
          </Text>
        </div>
        <NewRequestForm organizationId={organization.data.id} />
        <Title order={2} size="h4">
          Requests
        </Title>
        {requests.isPending ? (
          <Loader size="sm" aria-label="Loading the requests" />
        ) : requests.isError ? (
          <Alert color="red" title="The requests could not be loaded" role="alert">
            <Button variant="light" size="xs" mt="xs" onClick={() => void requests.refetch()}>
              Try again
            </Button>
          </Alert>
        ) : requests.data.length === 0 ? (
          <Text c="dimmed">No requests yet.</Text>
        ) : (
          <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {requests.data.map((request) => (
              <RequestItem key={request.id} request={request} />
            ))}
          </Stack>
        )}
      </Stack>
    </Container>
  );
}
