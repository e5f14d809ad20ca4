import { Paper, SegmentedControl, Stack, Title, type TitleOrder } from '@mantine/core';
import type { CreatedItem } from '@shortlane/shared/created-link.ts';
import { CONSENT_DEFAULTS, STORAGE_KEYS } from '@shortlane/shared/constants.ts';
import { hasFeature } from '@shortlane/shared/features.ts';
import { useId, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { href } from '../../../routes/paths.ts';
import { useAppState } from '../../../state/appState.ts';
import { useStoredFlag } from '../../../state/storedFlag.ts';
import { rememberGuestLink } from '../guestHistory.ts';
import { BulkLinkResult, SingleLinkResult } from '../result/index.ts';
import { BulkLinkForm, type ScheduledBatch } from './BulkLinkForm.tsx';
import { legacyCreateFlash } from './legacyFlash.ts';
import { useCreateFormModel } from './useCreateFormModel.ts';
import { SingleLinkForm, type StickyChoice } from './SingleLinkForm.tsx';
import { PERSONAL_TEAM, type CreateFormMode, type OrganizationScope } from './workspace.ts';

export interface CreateLinkFormProps {
  mode: CreateFormMode;
  /** Organization mode: the organization the links go to. */
  organization?: OrganizationScope | null;
  headingLevel?: TitleOrder;
  /** A legacy create flash (url and alias), possibly creating at once. */
  prefill?: { url: string; alias: string; autoSubmit: boolean } | null;
  /** Told of each created link (organization pages add it to their list). */
  onCreated?: (link: CreatedItem) => void;
}

type View =
  | { kind: 'single' }
  | { kind: 'bulk' }
  | { kind: 'created'; link: CreatedItem }
  | { kind: 'scheduled'; batch: ScheduledBatch };

const MODE_LABELS = [
  { value: 'single', label: 'Single' },
  { value: 'bulk', label: 'Bulk' },
];

/** The main alias of a created link (the one the result leads with). */
function mainAlias(link: CreatedItem) {
  return link.aliases.find((alias) => alias.is_main) ?? link.aliases[0];
}

/**
 * The create form (link-creation 2, 4): single or bulk mode (the toggle only for users who may
 * bulk-create), then the result view. After a single link: a guest's is remembered on this
 * device (My URLs); a user with analytics outside organization mode goes to the homepage with
 * the new alias active.
 */
export function CreateLinkForm({
  mode,
  organization = null,
  headingLevel = 2,
  prefill: givenPrefill = null,
  onCreated,
}: CreateLinkFormProps) {
  const { viewer, privacy } = useAppState();
  const [search] = useSearchParams();
  const [termsAccepted] = useStoredFlag(STORAGE_KEYS.termsAccepted, CONSENT_DEFAULTS.terms);
  // On the homepage a legacy create flash in the address prefills the form (read once).
  const [prefill] = useState(
    () =>
      givenPrefill ??
      (mode === 'home'
        ? legacyCreateFlash(search, { termsAccepted, ccpaAccepted: privacy.ccpaAccepted })
        : null),
  );
  const navigate = useNavigate();
  const titleId = useId();
  const [view, setView] = useState<View>({ kind: 'single' });
  const [sticky, setSticky] = useState<StickyChoice>({ domain: '', team: PERSONAL_TEAM });
  // The same gates the forms use; read here only to offer the Single/Bulk toggle.
  const { canBulk } = useCreateFormModel({ organization, teamId: sticky.team, domain: '' });
  const analyticsAllowed =
    viewer != null &&
    (viewer.subscribed || hasFeature({ features: viewer.features }, 'use_analytics'));

  function created(link: CreatedItem, choice: StickyChoice) {
    setSticky(choice);
    setView({ kind: 'created', link });
    onCreated?.(link);
    const alias = mainAlias(link);
    if (!alias) return;
    if (viewer == null) {
      rememberGuestLink({
        alias: alias.alias,
        domain: alias.domain,
        longUrl: link.url,
        createdAt: new Date().toISOString(),
      });
    } else if (analyticsAllowed && mode !== 'organization') {
      void navigate(href('homepage', null, { alias: alias.alias, active: true }));
    }
  }

  let body;
  switch (view.kind) {
    case 'created':
      body = (
        <SingleLinkResult
          link={view.link}
          analyticsAllowed={analyticsAllowed}
          onShortenAnother={() => setView({ kind: 'single' })}
        />
      );
      break;
    case 'scheduled':
      body = <BulkLinkResult batch={view.batch} onStartAnother={() => setView({ kind: 'bulk' })} />;
      break;
    case 'bulk':
      body = (
        <BulkLinkForm
          organization={organization}
          sticky={sticky}
          onScheduled={(batch, choice) => {
            setSticky(choice);
            setView({ kind: 'scheduled', batch });
          }}
        />
      );
      break;
    case 'single':
      body = (
        <SingleLinkForm
          mode={mode}
          organization={organization}
          sticky={sticky}
          prefill={prefill}
          onCreated={created}
        />
      );
      break;
  }

  const formView = view.kind === 'single' || view.kind === 'bulk';
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-labelledby={titleId}>
      <Stack gap="md">
        <Title order={headingLevel} size="h4" id={titleId}>
          Shorten a link
        </Title>
        {formView && canBulk ? (
          <SegmentedControl
            aria-label="Create one link or a batch"
            data={MODE_LABELS}
            value={view.kind}
            onChange={(value) => setView({ kind: value === 'bulk' ? 'bulk' : 'single' })}
          />
        ) : null}
        {body}
      </Stack>
    </Paper>
  );
}
