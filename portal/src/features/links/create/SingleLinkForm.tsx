import {
  Alert,
  Button,
  Checkbox,
  Collapse,
  Group,
  Select,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Tooltip,
  UnstyledButton,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { URL_INPUT_FOCUS_DELAY_MS } from '@shortlane/shared/constants.ts';
import type { CreatedItem } from '@shortlane/shared/created-link.ts';
import { resolveDomain } from '@shortlane/shared/domains.ts';
import { ERROR_CODES } from '@shortlane/shared/errors.ts';
import { MESSAGES } from '@shortlane/shared/messages.ts';
import { validateTags } from '@shortlane/shared/validation/tags.ts';
import { stripUtm } from '@shortlane/shared/validation/utm.ts';
import { useEffect, useId, useRef, useState } from 'react';
import { useCreateLinkMutation, type LinkCreateBody } from '../../../data/links-create-mutation.ts';
import { formErrorsFromError } from '../../../lib/forms.ts';
import { useAppState } from '../../../state/appState.ts';
import { UtmBuilderModal } from '../utm/index.ts';
import { AliasField } from './AliasField.tsx';
import { antiRobotErrorGate } from './antiRobotNotices.ts';
import { BotCheck, type BotCheckHandle } from './BotCheck.tsx';
import { CreateFormLoading } from './CreateFormLoading.tsx';
import { DomainSelect } from './DomainSelect.tsx';
import { expiryInputBounds, expiryInputError, localInputToUtcIso } from './expiry.ts';
import { sortCreateErrors } from './formErrors.ts';
import { messageText } from './messageKeys.ts';
import { TagsField } from './TagsField.tsx';
import { trackCreateAttempt } from './tracking.ts';
import { useCreateFormModel } from './useCreateFormModel.ts';
import { useCreditsCheck } from './useCreditsCheck.ts';
import { READABLE } from './readable.ts';
import type { CreateFormMode, OrganizationScope } from './workspace.ts';

export interface SingleFormValues {
  url: string;
  domain: string;
  alias: string;
  description: string;
  /** A team id, or PERSONAL_TEAM. */
  team: string;
  tags: string[];
  /** The picker's local YYYY-MM-DDTHH:mm, or '' for no expiry. */
  expiresAt: string;
}

/** What 'Shorten another' keeps: the domain and team the user chose. */
export interface StickyChoice {
  domain: string;
  team: string;
}

export interface SingleLinkFormProps {
  mode: CreateFormMode;
  organization: OrganizationScope | null;
  sticky: StickyChoice;
  /** A legacy create flash: the form starts with these and may create at once. */
  prefill?: { url: string; alias: string; autoSubmit: boolean } | null;
  onCreated: (link: CreatedItem, choice: StickyChoice) => void;
}

/**
 * Single mode of the create form (link-creation 2, 4, 5, 8): long URL, domain, alias,
 * description (organization mode), tags, advanced options (UTM, expiry), team, CCPA and the
 * bot check for guests. The server (the `links` function) judges every rule again; its 422
 * messages land under their fields, the first per field.
 */
export function SingleLinkForm({
  mode,
  organization,
  sticky,
  prefill,
  onCreated,
}: SingleLinkFormProps) {
  const { antiRobot } = useAppState();
  const form = useForm<SingleFormValues>({
    initialValues: {
      url: prefill?.url ?? '',
      domain: sticky.domain,
      alias: prefill?.alias ?? '',
      description: '',
      team: sticky.team,
      tags: [],
      expiresAt: '',
    },
  });
  const { values } = form;
  const model = useCreateFormModel({
    organization,
    teamId: values.team,
    domain: values.domain,
  });
  const createLink = useCreateLinkMutation();
  const checkCredits = useCreditsCheck(model.accountId);
  const urlInput = useRef<HTMLInputElement>(null);
  const botCheck = useRef<BotCheckHandle>(null);
  const [token, setToken] = useState<string | null>(null);
  const [botCheckError, setBotCheckError] = useState<string | null>(null);
  const [ccpaError, setCcpaError] = useState<string | null>(null);
  const [ccpaAccepted, setCcpaAccepted] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const [advanced, setAdvanced] = useState(false);
  const [utmOn, setUtmOn] = useState(false);
  const [utmOpen, setUtmOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const autoSubmitted = useRef(false);
  const utmApplied = useRef(false);
  const advancedId = useId();

  // The domain in use: the chosen one while selectable, else the first selectable one, else the
  // current host with 'domain not found' (link-creation 4).
  const resolved = model.loading
    ? null
    : resolveDomain(model.choices, window.location.hostname, values.domain || null);
  useEffect(() => {
    if (!resolved || resolved.domain === values.domain) return;
    form.setFieldValue('domain', resolved.domain);
    if (resolved.error) form.setFieldError('domain', messageText(resolved.error));
    // form is stable for the component's life; only the resolution matters here.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [resolved?.domain, resolved?.error, values.domain]);

  const busy = createLink.isPending || confirming;
  const needsCcpa = model.guest && ccpaError != null;
  const canSubmit =
    !busy && !model.loading && (!model.guest || token != null) && (!needsCcpa || ccpaAccepted);
  const expiryBounds = expiryInputBounds(new Date());

  const focusUrlSoon = () => setTimeout(() => urlInput.current?.focus(), URL_INPUT_FOCUS_DELAY_MS);

  const onBotCheckError = () => {
    setToken(null);
    if (antiRobotErrorGate.allow()) setBotCheckError(MESSAGES.antiRobotFailed);
  };

  function clientErrors(): Record<string, string> {
    const errors: Record<string, string> = {};
    if (model.tagsAllowed) {
      for (const [field, message] of Object.entries(validateTags(values.tags).errors)) {
        errors[field] = message;
      }
    }
    const expiry = model.expiryAllowed ? expiryInputError(values.expiresAt, new Date()) : null;
    if (expiry) errors.expiresAt = expiry;
    return errors;
  }

  function bodyOf(): LinkCreateBody {
    return {
      url: values.url,
      domain: values.domain,
      alias: model.aliasAccess.enabled && values.alias.trim() !== '' ? values.alias.trim() : null,
      description:
        mode === 'organization' && values.description.trim() !== ''
          ? values.description.trim()
          : null,
      // Tags go only where the plan (in organization mode: the team) may use them.
      tags: model.tagsAllowed ? validateTags(values.tags).tags : [],
      expires_at:
        model.expiryAllowed && values.expiresAt !== ''
          ? localInputToUtcIso(values.expiresAt)
          : null,
      anti_robot_token: model.guest ? token : null,
      ...(model.guest ? { ccpa_accepted: ccpaAccepted } : {}),
    };
  }

  async function submit() {
    setFormError(null);
    form.clearErrors();
    const errors = clientErrors();
    if (Object.keys(errors).length > 0) {
      form.setErrors(errors);
      return;
    }
    if (!model.guest) {
      setConfirming(true);
      const verdict = await checkCredits().finally(() => setConfirming(false));
      if (!verdict.go) {
        if (verdict.error) setFormError(verdict.error);
        return;
      }
    }
    const choice: StickyChoice = { domain: values.domain, team: values.team };
    try {
      const items = await createLink.mutateAsync({ workspace: model.workspace, body: bodyOf() });
      trackCreateAttempt('created', 'single');
      setBotCheckError(null);
      onCreated(items[0]!, choice);
    } catch (error) {
      trackCreateAttempt('refused', 'single');
      const sorted = sortCreateErrors(await formErrorsFromError(error));
      form.setErrors(sorted.fields);
      setFormError(sorted.form);
      if (sorted.ccpa) setCcpaError(sorted.ccpa);
      if (sorted.botCheck && antiRobotErrorGate.allow()) setBotCheckError(sorted.botCheck);
      if (sorted.fields.url) focusUrlSoon();
      if (sorted.fields.expiresAt || sorted.fields.description) setAdvanced(true);
    } finally {
      // The check is single use: start over after each attempt (link-creation 4).
      botCheck.current?.reset();
      setToken(null);
    }
  }

  // A legacy create flash creates at once when it may (link-creation 4).
  useEffect(() => {
    if (!prefill?.autoSubmit || autoSubmitted.current || !canSubmit) return;
    autoSubmitted.current = true;
    void submit();
    // submit reads the current render's values; it runs once, when the form first may submit.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [prefill?.autoSubmit, canSubmit]);

  function toggleUtm(on: boolean) {
    if (!on) {
      setUtmOn(false);
      form.setFieldValue('url', stripUtm(values.url));
      return;
    }
    if (values.url.trim() === '') {
      form.setFieldError('url', MESSAGES.urlRequired);
      setUtmOn(false);
      return;
    }
    setUtmOn(true);
    setUtmOpen(true);
  }

  if (model.loading) {
    return <CreateFormLoading />;
  }
  if (model.failed) {
    return (
      <Alert color="red" title="The domains could not be loaded">
        <Group>
          <Text size="sm">{MESSAGES.somethingWentWrong}</Text>
          <Button size="xs" variant="light" onClick={model.retry}>
            Try again
          </Button>
        </Group>
      </Alert>
    );
  }

  const tagErrors = Object.fromEntries(
    Object.entries(form.errors).flatMap(([field, message]) =>
      field === 'tags' || field.startsWith('tags.') ? [[field, String(message)]] : [],
    ),
  );

  return (
    <>
      <form
        noValidate
        aria-busy={busy}
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          <TextInput
            ref={urlInput}
            label="Long URL"
            placeholder="https://example.com/a-very-long-address"
            type="url"
            inputMode="url"
            autoComplete="url"
            required
            {...form.getInputProps('url')}
          />
          <Group grow align="flex-start" wrap="wrap">
            <DomainSelect
              choices={model.choices}
              value={values.domain}
              onChange={(domain) => {
                form.setFieldValue('domain', domain);
                form.clearFieldError('domain');
              }}
              error={form.errors.domain as string | undefined}
              disabled={busy || model.loading}
            />
            <AliasField
              access={model.aliasAccess}
              domain={values.domain}
              value={values.alias}
              onChange={(alias) => form.setFieldValue('alias', alias)}
              error={form.errors.alias as string | undefined}
              disabled={busy}
            />
          </Group>
          {model.teamOptions.length > 1 ? (
            <Select
              label="Team"
              data={model.teamOptions}
              value={values.team}
              allowDeselect={false}
              onChange={(team) => team != null && form.setFieldValue('team', team)}
              error={form.errors.team as string | undefined}
              disabled={busy}
              comboboxProps={{ withinPortal: true }}
            />
          ) : null}
          {mode === 'organization' ? (
            <Textarea
              label="Description"
              autosize
              minRows={2}
              {...form.getInputProps('description')}
            />
          ) : null}
          {model.guest ? null : (
            <TagsField
              value={values.tags}
              onChange={(tags) => {
                form.setFieldValue('tags', tags);
                // One update: the tag errors are replaced as a whole, other fields keep theirs.
                const others = Object.fromEntries(
                  Object.entries(form.errors).filter(
                    ([field]) => field !== 'tags' && !field.startsWith('tags.'),
                  ),
                );
                form.setErrors({ ...others, ...validateTags(tags).errors });
              }}
              errors={tagErrors}
              locked={!model.tagsAllowed}
              disabled={busy}
            />
          )}
          <UnstyledButton
            onClick={() => setAdvanced((open) => !open)}
            aria-expanded={advanced}
            aria-controls={advancedId}
            fz="sm"
            fw={600}
            c="blue.8"
          >
            {advanced ? 'Hide advanced options' : 'Advanced options'}
          </UnstyledButton>
          <Collapse expanded={advanced}>
            <Stack gap="sm" id={advancedId}>
              <Switch
                label="Add UTM parameters"
                checked={utmOn}
                onChange={(event) => toggleUtm(event.currentTarget.checked)}
                disabled={busy}
              />
              <Tooltip
                label={ERROR_CODES.expiry_not_allowed.message}
                disabled={model.expiryAllowed}
                position="top-start"
              >
                <TextInput
                  type="datetime-local"
                  label="Link expiry (your local time)"
                  description={model.expiryAllowed ? 'Leave empty to keep the link forever.' : ''}
                  descriptionProps={READABLE}
                  min={expiryBounds.min}
                  max={expiryBounds.max}
                  disabled={busy || !model.expiryAllowed}
                  value={values.expiresAt}
                  onChange={(event) => {
                    const value = event.currentTarget.value;
                    form.setFieldValue('expiresAt', value);
                    const error = expiryInputError(value, new Date());
                    if (error) form.setFieldError('expiresAt', error);
                    else form.clearFieldError('expiresAt');
                  }}
                  error={form.errors.expiresAt}
                />
              </Tooltip>
            </Stack>
          </Collapse>
          {needsCcpa ? (
            <Checkbox
              label="I accept that my information is processed under the CCPA notice."
              checked={ccpaAccepted}
              onChange={(event) => setCcpaAccepted(event.currentTarget.checked)}
              error={ccpaAccepted ? undefined : ccpaError}
            />
          ) : null}
          {model.guest ? (
            <BotCheck
              ref={botCheck}
              config={antiRobot}
              onToken={(next) => {
                setToken(next);
                if (next) setBotCheckError(null);
              }}
              onError={onBotCheckError}
              error={botCheckError}
            />
          ) : null}
          {formError ? (
            <Alert color="red" role="alert">
              {formError}
            </Alert>
          ) : null}
          <Group>
            <Button type="submit" loading={busy} disabled={!canSubmit}>
              Shorten URL
            </Button>
          </Group>
        </Stack>
      </form>
      {/* Outside the form: the builder is a form of its own, and forms may not nest. */}
      <UtmBuilderModal
        opened={utmOpen}
        url={values.url}
        accountId={model.accountId}
        onClose={() => {
          setUtmOpen(false);
          // Closed without applying: the toggle follows what the URL holds.
          if (!utmApplied.current) setUtmOn(stripUtm(values.url) !== values.url);
          utmApplied.current = false;
        }}
        onApply={(urlWithUtm) => {
          utmApplied.current = true;
          form.setFieldValue('url', urlWithUtm);
          setUtmOn(true);
        }}
      />
    </>
  );
}
