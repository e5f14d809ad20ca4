import { Button, Checkbox, Group, Stack, Switch, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { WEBHOOK_EVENTS, type WebhookEvent } from '../../data/webhooks/keys.ts';
import type { WebhookEndpointInput } from '../../data/webhooks/endpoint-save-mutation.ts';
import type { WebhookEndpointRow } from '../../data/webhooks/endpoints-query.ts';

export const EVENT_LABELS: Record<WebhookEvent, string> = {
  'link.created': 'Link created',
  'link.updated': 'Link updated',
  'link.deleted': 'Link deleted',
  'link.clicked': 'Link clicked (in batches)',
  'bulk.completed': 'Bulk import finished',
  'domain.verified': 'Domain verified',
};

/** Add or edit one endpoint: URL, description, events, enabled. */
export function EndpointForm({
  endpoint,
  saving,
  urlError,
  onSubmit,
  onCancel,
}: {
  endpoint: WebhookEndpointRow | null;
  saving: boolean;
  urlError: string | null;
  onSubmit: (input: WebhookEndpointInput) => void;
  onCancel: () => void;
}) {
  const [url, setUrl] = useState(endpoint?.url ?? '');
  const [description, setDescription] = useState(endpoint?.description ?? '');
  const [events, setEvents] = useState<string[]>(endpoint?.events ?? ['link.created']);
  const [enabled, setEnabled] = useState(endpoint?.enabled ?? true);
  const [checked, setChecked] = useState(false);
  const eventsError = checked && events.length === 0 ? 'Choose at least one event.' : null;
  const urlRequired = checked && url.trim() === '' ? 'The URL field is required.' : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (events.length === 0 || url.trim() === '') return;
    onSubmit({
      url: url.trim(),
      description: description.trim() === '' ? null : description.trim(),
      events: events as WebhookEvent[],
      enabled,
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label="Endpoint URL"
          placeholder="https://example.com/webhooks"
          required
          value={url}
          onChange={(event) => setUrl(event.currentTarget.value)}
          error={urlRequired ?? urlError}
          data-autofocus
        />
        <TextInput
          label="Description"
          value={description}
          maxLength={255}
          onChange={(event) => setDescription(event.currentTarget.value)}
        />
        <Checkbox.Group
          label="Events"
          required
          value={events}
          onChange={setEvents}
          error={eventsError}
        >
          <Stack gap={6} mt={6}>
            {WEBHOOK_EVENTS.map((name) => (
              <Checkbox key={name} value={name} label={`${EVENT_LABELS[name]} (${name})`} />
            ))}
          </Stack>
        </Checkbox.Group>
        <Switch
          label="Enabled"
          checked={enabled}
          onChange={(event) => setEnabled(event.currentTarget.checked)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={saving}>
            Save endpoint
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
