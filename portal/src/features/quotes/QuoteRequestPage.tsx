import {
  Alert,
  Anchor,
  Button,
  Container,
  Group,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { quoteRequestSchema } from '@shortlane/shared/schemas/quote.ts';
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { useQuoteRequestMutation } from '../../data/quotes/quote-request-mutation.ts';
import { ApiError } from '../../data/unwrap.ts';
import { formErrorsFromError, validateWith } from '../../lib/forms.ts';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { paths } from '../../routes/paths.ts';
import { useViewer } from '../../state/appState.ts';

export const TOO_MANY = 'Too Many Attempts.';
export const NOT_SENT = 'Your request could not be sent. Please try again.';

interface QuoteForm {
  name: string;
  email: string;
  company: string;
  // NumberInput answers '' while empty.
  links_per_month: number | '';
  team_size: number | '';
  message: string;
}

const validateQuote = validateWith(quoteRequestSchema);

/** An empty number field is no number at all: the schema then says what to enter. */
const asSchemaInput = (values: QuoteForm) => ({
  ...values,
  links_per_month: values.links_per_month === '' ? Number.NaN : values.links_per_month,
  team_size: values.team_size === '' ? Number.NaN : values.team_size,
});

/**
 * /app/pricing/quote: an Enterprise quote request, which staff answer from the kiosk. Open to
 * guests; a signed-in person's name and address are filled in and the request is theirs.
 */
export default function QuoteRequestPage() {
  const { productName } = useConfig();
  usePageTitle('Request a quote', productName);
  const viewer = useViewer();
  const send = useQuoteRequestMutation();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<QuoteForm>({
    initialValues: {
      name: viewer?.name ?? '',
      email: viewer?.email ?? '',
      company: '',
      links_per_month: '',
      team_size: '',
      message: '',
    },
    validate: (values) => validateQuote(asSchemaInput(values)),
  });

  // The session may arrive after the first render: fill in what the person has not typed yet.
  const { getValues, setFieldValue } = form;
  useEffect(() => {
    if (viewer == null) return;
    if (getValues().name === '') setFieldValue('name', viewer.name);
    if (getValues().email === '') setFieldValue('email', viewer.email);
  }, [viewer, getValues, setFieldValue]);

  const submit = form.onSubmit(async (values) => {
    setFormError(null);
    const request = quoteRequestSchema.parse(asSchemaInput(values));
    try {
      await send.mutateAsync(request);
      setSentTo(request.email);
    } catch (error) {
      if (error instanceof ApiError && error.status === 429) return setFormError(TOO_MANY);
      const fields = await formErrorsFromError(error);
      if (Object.keys(fields).length === 0) return setFormError(NOT_SENT);
      form.setErrors(fields);
    }
  });

  return (
    <Container size="sm" py="xl">
      <Title order={1}>Request a quote</Title>
      <Text mt="sm" c="dimmed">
        Enterprise plans are sized to your volume and team: single sign-on, an audit trail, custom
        limits and a service-level agreement. Tell us what you need and we answer within one
        business day.
      </Text>
      <Paper withBorder p="lg" mt="lg" radius="md">
        {sentTo != null ? (
          <Stack gap="sm">
            <Text role="status" fw={500}>
              Thank you. We will write to {sentTo} within one business day.
            </Text>
            <Group>
              <Anchor component={Link} to={paths['signup.pricing']}>
                Back to the plans
              </Anchor>
            </Group>
          </Stack>
        ) : (
          <form onSubmit={submit} noValidate aria-label="Quote request" aria-busy={send.isPending}>
            <Stack gap="md">
              {formError != null && (
                <Alert color="red" role="alert" title="Not sent">
                  {formError}
                </Alert>
              )}
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  label="Name"
                  autoComplete="name"
                  required
                  key={form.key('name')}
                  {...form.getInputProps('name')}
                />
                <TextInput
                  label="Work e-mail"
                  type="email"
                  autoComplete="email"
                  required
                  key={form.key('email')}
                  {...form.getInputProps('email')}
                />
              </SimpleGrid>
              <TextInput
                label="Company"
                description="Optional"
                autoComplete="organization"
                key={form.key('company')}
                {...form.getInputProps('company')}
              />
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <NumberInput
                  label="Links a month"
                  required
                  min={1}
                  max={1_000_000_000}
                  allowDecimal={false}
                  allowNegative={false}
                  thousandSeparator=","
                  key={form.key('links_per_month')}
                  {...form.getInputProps('links_per_month')}
                />
                <NumberInput
                  label="People who will use it"
                  required
                  min={1}
                  max={1_000_000}
                  allowDecimal={false}
                  allowNegative={false}
                  thousandSeparator=","
                  key={form.key('team_size')}
                  {...form.getInputProps('team_size')}
                />
              </SimpleGrid>
              <Textarea
                label="What else should we know?"
                description="Optional: domains, single sign-on, integrations, deadlines."
                autosize
                minRows={3}
                maxRows={10}
                key={form.key('message')}
                {...form.getInputProps('message')}
              />
              <Group>
                <Button type="submit" loading={send.isPending}>
                  Send request
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Paper>
    </Container>
  );
}
