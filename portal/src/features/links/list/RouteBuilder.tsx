import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Group,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { NOTICE_DURATION_MS } from '@shortlane/shared/constants.ts';
import type { RedirectRoute } from '@shortlane/shared/routing.ts';
import { useState } from 'react';
import {
  useLinkRoutesQuery,
  useRouteBuilderQuery,
  useSaveRoutesMutation,
} from '../../../data/link-routes-query.ts';
import type { LinkListItem } from '../../../data/links-list-query.ts';
import { formErrorsFromError } from '../../../lib/forms.ts';
import { useNotify } from '../../../lib/servicesContext.ts';
import {
  type BuilderData,
  choicesOf,
  type ConditionErrors,
  conditionOf,
  type DraftCondition,
  draftErrors,
  draftsFromRoutes,
  type DraftRule,
  hasErrors,
  MAX_CONDITIONS_PER_RULE,
  MAX_RULES,
  moveDraft,
  newDraftCondition,
  newDraftRule,
  type RuleErrors,
  operationsFor,
  type SampleVisitor,
  saveArgs,
  testRoutes,
  valueOf,
} from './routeBuilder.ts';

interface ConditionEditorProps {
  draft: DraftCondition;
  /** "Rule 2, condition 3": what the condition's remove button says it removes. */
  name: string;
  data: BuilderData;
  errors: ConditionErrors;
  onChange: (draft: DraftCondition) => void;
  /** Absent while it is the rule's only condition. */
  onRemove?: () => void;
}

function ConditionEditor({ draft, name, data, errors, onChange, onRemove }: ConditionEditorProps) {
  const value = valueOf(data, draft.value);
  const hasOperation = conditionOf(data, draft.condition)?.has_operations ?? true;
  const operations = operationsFor(data, draft.value);
  const choices = choicesOf(value);
  const set = (patch: Partial<DraftCondition>) => onChange({ ...draft, ...patch });
  return (
    <Stack gap="xs" role="group" aria-label={name}>
      <Group grow align="flex-start">
        <Select
          label="Condition"
          data={data.conditions.map((c) => ({ value: c.id, label: c.name }))}
          value={draft.condition}
          allowDeselect={false}
          onChange={(condition) => condition && set({ condition })}
        />
        <Select
          label="Value"
          data={data.values.map((v) => ({ value: v.id, label: v.name }))}
          value={draft.value}
          allowDeselect={false}
          onChange={(id) => {
            if (!id) return;
            const applicable = operationsFor(data, id).map((operation) => operation.id);
            set({
              value: id,
              operands: '',
              argument: '',
              operation: applicable.includes(draft.operation)
                ? draft.operation
                : (applicable[0] ?? ''),
            });
          }}
        />
        {onRemove && (
          <ActionIcon
            variant="default"
            color="red"
            aria-label={`Remove ${name.toLowerCase()}`}
            onClick={onRemove}
            style={{ flexGrow: 0, alignSelf: 'flex-end' }}
            size="lg"
          >
            ✕
          </ActionIcon>
        )}
      </Group>
      {value?.argument && (
        <TextInput
          label={value.argument === 'parameter' ? 'Query parameter' : 'Time zone'}
          placeholder={
            value.argument === 'parameter' ? 'e.g. ref' : 'e.g. Europe/Berlin (UTC if empty)'
          }
          value={draft.argument}
          error={errors.argument}
          onChange={(event) => set({ argument: event.currentTarget.value })}
        />
      )}
      {hasOperation && (
        <Group grow align="flex-start">
          <Select
            label="Operation"
            data={operations.map((o) => ({ value: o.id, label: o.name }))}
            value={draft.operation || null}
            error={errors.operation}
            allowDeselect={false}
            onChange={(operation) => operation && set({ operation })}
          />
          <TextInput
            label="Values"
            description={
              choices.length > 0
                ? `One of: ${choices.map(([code]) => code).join(', ')}`
                : 'Separate several values with commas'
            }
            value={draft.operands}
            error={errors.operands}
            onChange={(event) => set({ operands: event.currentTarget.value })}
          />
        </Group>
      )}
    </Stack>
  );
}

interface RuleEditorProps {
  draft: DraftRule;
  index: number;
  count: number;
  data: BuilderData;
  errors: RuleErrors;
  onChange: (draft: DraftRule) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}

function RuleEditor({
  draft,
  index,
  count,
  data,
  errors,
  onChange,
  onMove,
  onRemove,
}: RuleEditorProps) {
  const set = (patch: Partial<DraftRule>) => onChange({ ...draft, ...patch });
  const setConditions = (conditions: DraftCondition[]) => set({ conditions });
  const label = `Rule ${index + 1}`;
  const several = draft.conditions.length > 1;
  return (
    <Card withBorder padding="sm" role="group" aria-label={label}>
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={600}>{label}</Text>
          <Group gap={4}>
            <ActionIcon
              variant="default"
              aria-label={`Move rule ${index + 1} up`}
              disabled={index === 0}
              onClick={() => onMove(-1)}
            >
              ↑
            </ActionIcon>
            <ActionIcon
              variant="default"
              aria-label={`Move rule ${index + 1} down`}
              disabled={index === count - 1}
              onClick={() => onMove(1)}
            >
              ↓
            </ActionIcon>
            <ActionIcon
              variant="default"
              color="red"
              aria-label={`Remove rule ${index + 1}`}
              onClick={onRemove}
            >
              ✕
            </ActionIcon>
          </Group>
        </Group>
        {several && (
          <Select
            label="Holds when"
            data={data.urls_conditions.map((u) => ({ value: u.id, label: u.name }))}
            value={draft.match}
            allowDeselect={false}
            onChange={(match) => match && set({ match })}
          />
        )}
        {draft.conditions.map((condition, at) => (
          <ConditionEditor
            key={condition.key}
            draft={condition}
            name={`${label}, condition ${at + 1}`}
            data={data}
            errors={errors.conditions[at] ?? {}}
            onChange={(next) =>
              setConditions(draft.conditions.map((entry, i) => (i === at ? next : entry)))
            }
            onRemove={
              several ? () => setConditions(draft.conditions.filter((_, i) => i !== at)) : undefined
            }
          />
        ))}
        <Group>
          <Button
            variant="subtle"
            size="compact-sm"
            disabled={draft.conditions.length >= MAX_CONDITIONS_PER_RULE}
            onClick={() => setConditions([...draft.conditions, newDraftCondition()])}
          >
            Add condition
          </Button>
        </Group>
        <TextInput
          label="Then go to"
          type="url"
          placeholder="https://"
          value={draft.url}
          error={errors.url}
          onChange={(event) => set({ url: event.currentTarget.value })}
        />
      </Stack>
    </Card>
  );
}

function SampleTester({
  drafts,
  data,
  destination,
}: {
  drafts: DraftRule[];
  data: BuilderData;
  destination: string;
}) {
  const [sample, setSample] = useState<SampleVisitor>({
    country: '',
    device: 'desktop',
    language: '',
  });
  const [result, setResult] = useState<{ index: number | null; url: string } | null>(null);
  return (
    <Card withBorder padding="sm" role="group" aria-label="Test the rules">
      <Stack gap="xs">
        <Text fw={600}>Test against a sample visitor</Text>
        <Group grow align="flex-end">
          <TextInput
            label="Sample country"
            placeholder="DE"
            value={sample.country}
            onChange={(event) => {
              const country = event.currentTarget.value;
              setSample((current) => ({ ...current, country }));
            }}
          />
          <Select
            label="Sample device"
            data={['desktop', 'mobile', 'tablet']}
            value={sample.device}
            allowDeselect={false}
            onChange={(device) => device && setSample((current) => ({ ...current, device }))}
          />
          <TextInput
            label="Sample language"
            placeholder="de"
            value={sample.language}
            onChange={(event) => {
              const language = event.currentTarget.value;
              setSample((current) => ({ ...current, language }));
            }}
          />
          <Button
            variant="default"
            onClick={() => setResult(testRoutes(drafts, data, sample, destination))}
          >
            Test
          </Button>
        </Group>
        {result && (
          <Text role="status">
            {result.index === null
              ? `No rule matches: goes to the link's destination ${result.url}`
              : `Rule ${result.index + 1} matches: goes to ${result.url}`}
          </Text>
        )}
      </Stack>
    </Card>
  );
}

/**
 * The link's redirect rules in the edit dialog: shown only when the plan has redirect routes
 * (route_builder_init answers) and once the saved rules are in; saved on their own, all at once.
 */
export function RouteBuilder({ link }: { link: LinkListItem }) {
  const builder = useRouteBuilderQuery();
  const data = builder.data ?? null;
  const saved = useLinkRoutesQuery(link.id, data != null);
  if (!data || !saved.data) return null;
  return <RouteEditor link={link} data={data} routes={saved.data} />;
}

function RouteEditor({
  link,
  data,
  routes,
}: {
  link: LinkListItem;
  data: BuilderData;
  routes: RedirectRoute[];
}) {
  const notify = useNotify();
  const save = useSaveRoutesMutation(link.id);
  const [drafts, setDrafts] = useState<DraftRule[]>(() => draftsFromRoutes(routes));
  const [errors, setErrors] = useState<RuleErrors[]>([]);
  const [formError, setFormError] = useState<string | null>(null);

  const update = (next: DraftRule[]) => {
    setDrafts(next);
    setErrors([]);
  };
  const submit = async () => {
    setFormError(null);
    const found = drafts.map((draft) => draftErrors(draft, data));
    setErrors(found);
    if (found.some(hasErrors)) return;
    try {
      await save.mutateAsync(saveArgs(drafts, data));
      notify({
        message: 'The redirect rules were saved.',
        durationMs: NOTICE_DURATION_MS.default,
        tone: 'success',
      });
    } catch (error) {
      const messages = await formErrorsFromError(error);
      setFormError(Object.values(messages)[0] ?? 'The rules could not be saved.');
    }
  };

  return (
    <Stack gap="xs" component="section" aria-label="Redirect rules">
      <Title order={4}>Redirect rules</Title>
      <Text size="sm" c="dimmed">
        Tried in order; the first rule that matches decides where the visitor goes. Otherwise the
        destination URL above answers.
      </Text>
      {formError && (
        <Alert color="red" role="alert">
          {formError}
        </Alert>
      )}
      {drafts.map((draft, index) => (
        <RuleEditor
          key={draft.key}
          draft={draft}
          index={index}
          count={drafts.length}
          data={data}
          errors={errors[index] ?? { conditions: [] }}
          onChange={(next) => update(drafts.map((entry, at) => (at === index ? next : entry)))}
          onMove={(by) => update(moveDraft(drafts, index, by))}
          onRemove={() => update(drafts.filter((_, at) => at !== index))}
        />
      ))}
      <Group justify="space-between">
        <Button
          variant="default"
          disabled={drafts.length >= MAX_RULES}
          onClick={() => update([...drafts, newDraftRule()])}
        >
          Add rule
        </Button>
        <Button variant="light" loading={save.isPending} onClick={() => void submit()}>
          Save rules
        </Button>
      </Group>
      {drafts.length > 0 && <SampleTester drafts={drafts} data={data} destination={link.longUrl} />}
    </Stack>
  );
}
