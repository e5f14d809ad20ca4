import { Alert, Button, Group, Modal, Stack, TagsInput, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import { ERROR_CODES } from '@shortlane/shared/errors.ts';
import { expiryWindow } from '@shortlane/shared/validation/expiry.ts';
import { normalizeTag } from '@shortlane/shared/validation/tags.ts';
import { useState } from 'react';
import { useUpdateLinkMutation } from '../../../data/link-update-mutation.ts';
import type { LinkListItem } from '../../../data/links-list-query.ts';
import { formErrorsFromError } from '../../../lib/forms.ts';
import { useNotify } from '../../../lib/servicesContext.ts';
import {
  browserUtcOffsetMinutes,
  initialEditValues,
  linkEditArgs,
  validateLinkEdit,
  type LinkEditValues,
} from './linkEdit.ts';
import { READABLE_INPUT_STYLES } from './readableStyles.ts';
import { LinkPixels } from './LinkPixels.tsx';
import { RouteBuilder } from './RouteBuilder.tsx';

/** What the link's plan allows; undefined when not known here (the server still decides). */
export interface LinkEditAllowances {
  changeDestination?: boolean;
  tags?: boolean;
  expiry?: boolean;
}

/** Server field names to the form's. */
const FIELD_OF: Record<string, keyof LinkEditValues> = {
  alias: 'alias',
  url: 'url',
  tags: 'tags',
  expires_at: 'expiresAt',
  description: 'description',
};

/** Server errors onto the form's fields; anything else (form, domain…) is the form's. */
export function editFormErrors(serverErrors: Record<string, string>): {
  fields: Record<string, string>;
  form: string | null;
} {
  const fields: Record<string, string> = {};
  let form: string | null = null;
  for (const [key, message] of Object.entries(serverErrors)) {
    const field = FIELD_OF[key];
    if (field) fields[field] = message;
    else if (key.startsWith('tags.')) fields[key] = message;
    else form ??= message;
  }
  return { fields, form };
}

/** The first per-tag error ('tags.N'), shown under the tags input with the tag it is about. */
function tagsError(errors: Record<string, unknown>, tags: readonly string[]): string | undefined {
  if (typeof errors.tags === 'string') return errors.tags;
  for (const [key, message] of Object.entries(errors)) {
    const index = /^tags\.(\d+)$/.exec(key)?.[1];
    if (index != null && typeof message === 'string') {
      const tag = tags.map(normalizeTag).filter((entry) => entry !== '')[Number(index)];
      return tag ? `${tag}: ${message}` : message;
    }
  }
  return undefined;
}

interface EditLinkModalProps {
  link: LinkListItem;
  allowances?: LinkEditAllowances;
  onClose: () => void;
}

/**
 * Edit a link: alias, destination (paid), tags, expiry, a description for organization links,
 * its redirect rules where the plan has them, and the retargeting pixels it fires.
 */
export function EditLinkModal({ link, allowances = {}, onClose }: EditLinkModalProps) {
  const notify = useNotify();
  const update = useUpdateLinkMutation();
  const [utcOffsetMinutes] = useState(() => browserUtcOffsetMinutes());
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<LinkEditValues>({
    initialValues: initialEditValues(link, utcOffsetMinutes),
    validate: (values) => validateLinkEdit(values, link, { now: new Date(), utcOffsetMinutes }),
  });
  const expiryBounds = expiryWindow({ now: new Date(), utcOffsetMinutes });

  const submit = form.onSubmit(async (values) => {
    setFormError(null);
    const args = linkEditArgs(values, link, utcOffsetMinutes);
    if (args == null) {
      onClose();
      return;
    }
    try {
      await update.mutateAsync(args);
      notify({
        message: 'The link was saved.',
        durationMs: NOTICE_DURATION_MS.default,
        tone: 'success',
      });
      onClose();
    } catch (error) {
      // The global handler has announced the failure; here each message goes where it belongs.
      const { fields, form: general } = editFormErrors(await formErrorsFromError(error));
      form.setErrors(fields);
      setFormError(general);
    }
  });

  const destinationLocked = allowances.changeDestination === false;
  return (
    <Modal opened onClose={onClose} title={`Edit ${link.domain}/${link.alias}`} size="lg">
      <form onSubmit={submit} noValidate aria-busy={update.isPending} aria-label="Edit link">
        <Stack gap="sm">
          {formError && (
            <Alert color="red" role="alert">
              {formError}
            </Alert>
          )}
          <TextInput
            label="Alias"
            styles={READABLE_INPUT_STYLES}
            description={`The part after ${link.domain}/`}
            required
            autoComplete="off"
            data-autofocus
            key={form.key('alias')}
            {...form.getInputProps('alias')}
          />
          <TextInput
            label="Destination URL"
            type="url"
            required
            disabled={destinationLocked}
            styles={READABLE_INPUT_STYLES}
            description={destinationLocked ? ERROR_CODES.paid_only.message : undefined}
            key={form.key('url')}
            {...form.getInputProps('url')}
          />
          <TagsInput
            label="Tags"
            styles={READABLE_INPUT_STYLES}
            description={
              allowances.tags === false
                ? ERROR_CODES.tags_not_allowed.message
                : 'Press Enter after each tag; tags are lower case without spaces.'
            }
            disabled={allowances.tags === false}
            key={form.key('tags')}
            {...form.getInputProps('tags')}
            onChange={(tags) => form.setFieldValue('tags', tags.map(normalizeTag))}
            error={tagsError(form.errors, form.getValues().tags)}
          />
          <Group align="flex-end" gap="xs" wrap="nowrap">
            <TextInput
              style={{ flex: 1 }}
              label="Expires at (your local time)"
              type="datetime-local"
              min={`${expiryBounds.minDate}T00:00`}
              max={`${expiryBounds.maxDate}T23:59`}
              disabled={allowances.expiry === false}
              styles={READABLE_INPUT_STYLES}
              description={
                allowances.expiry === false
                  ? ERROR_CODES.expiry_not_allowed.message
                  : 'Leave empty for a link that never expires.'
              }
              key={form.key('expiresAt')}
              {...form.getInputProps('expiresAt')}
            />
            <Button
              variant="default"
              onClick={() => form.setFieldValue('expiresAt', '')}
              disabled={allowances.expiry === false || form.getValues().expiresAt === ''}
            >
              No expiry
            </Button>
          </Group>
          {link.organizationId != null && (
            <Textarea
              label="Description"
              autosize
              minRows={2}
              maxLength={1000}
              key={form.key('description')}
              {...form.getInputProps('description')}
            />
          )}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={update.isPending}>
              Save changes
            </Button>
          </Group>
        </Stack>
      </form>
      {/* Its own form and save: the rules are a list saved at once, not fields of update_link. */}
      <Stack mt="lg">
        <RouteBuilder link={link} />
        <LinkPixels link={link} />
      </Stack>
    </Modal>
  );
}
