import {
  Alert,
  Anchor,
  Button,
  Container,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import type { StatsPeriod } from '@shortlane/shared/constants.ts';
import { shortUrl } from '@shortlane/shared/short-url.ts';
import { useDeferredValue, type ReactNode } from 'react';
import { Link, Navigate, useLocation, useParams } from 'react-router-dom';
import { useAuth } from '../../auth/AuthContext.ts';
import { LoadingFrame } from '../../components/LoadingFrame.tsx';
import { PageLoader } from '../../components/PageLoader.tsx';
import {
  analyticsTarget,
  useAnalyticsReportQuery,
  useLinkAnalyticsAccessQuery,
  type AnalyticsTarget,
} from '../../data/link-analytics-query.ts';
import { AnalyticsReportView } from '../../features/analytics/AnalyticsReportView.tsx';
import { DownloadLogButton } from '../../features/analytics/DownloadLogButton.tsx';
import {
  ANALYTICS_PLAN_MESSAGES,
  analyticsErrorCode,
  analyticsErrorMessage,
} from '../../features/analytics/errors.ts';
import { effectivePeriod, useStatsPeriod } from '../../features/analytics/period.ts';
import { PeriodPicker } from '../../features/analytics/PeriodPicker.tsx';
import { SharePanel } from '../../features/analytics/SharePanel.tsx';
import { useConfig } from '../../lib/servicesContext.ts';
import { usePageTitle } from '../../lib/usePageTitle.ts';
import { loginPathFor, paths } from '../../routes/paths.ts';

/**
 * A report (totals, chart, five breakdown tables) is longer than a screen on any device: its
 * loading frame takes a screen, so the footer stays out of sight instead of rising into view and
 * dropping out again when the report arrives.
 */
const REPORT_MIN_HEIGHT = '100vh';

/** A page that cannot show analytics, saying why and where to go. */
function Problem({
  title,
  message,
  action,
}: {
  title: string;
  message: string;
  action?: ReactNode;
}) {
  return (
    <Container size="sm" py="xl">
      <Paper withBorder p="xl" radius="md">
        <Title order={1} size="h2">
          {title}
        </Title>
        <Text mt="sm">{message}</Text>
        <Group mt="lg">
          {action ?? (
            <Button component={Link} to={paths.homepage} variant="default">
              Back to the homepage
            </Button>
          )}
        </Group>
      </Paper>
    </Container>
  );
}

/** The header, period picker, actions and report, for either kind of target. */
function ReportLayout({
  target,
  period,
  allowedPeriods,
  onPeriodChange,
  heading,
  intro,
  actions,
}: {
  target: AnalyticsTarget;
  period: StatsPeriod;
  allowedPeriods: readonly StatsPeriod[] | null;
  onPeriodChange: (period: StatsPeriod) => void;
  heading: ReactNode;
  intro: ReactNode;
  actions?: ReactNode;
}) {
  const report = useAnalyticsReportQuery(target, period);
  // Rendered in a transition, in slices between which the browser paints and answers input (a
  // query's answer otherwise renders at once: the figures, chart and tables in one long task).
  // Also when the page opens with the report already at hand (its Prefetch): null at first.
  const shown = useDeferredValue(report.data ?? null, null);
  return (
    <Container size="lg" py="xl">
      <Stack gap="lg">
        <Group justify="space-between" align="flex-end" gap="md">
          <div>
            <Title order={1} size="h2">
              {heading}
            </Title>
            <Text c="gray.7" size="sm" mt={4}>
              {intro}
            </Text>
          </div>
          <Group gap="sm" align="center">
            {report.isFetching && !report.isPending && (
              <Loader size="xs" role="status" aria-label="Updating the analytics" />
            )}
            <PeriodPicker value={period} onChange={onPeriodChange} allowed={allowedPeriods} />
          </Group>
        </Group>
        {actions}
        {report.isError ? (
          <Alert color="red" title="The analytics could not be loaded" role="alert">
            {analyticsErrorMessage(report.error)}
          </Alert>
        ) : report.isPending || shown == null ? (
          <LoadingFrame label="Loading the analytics…" minHeight={REPORT_MIN_HEIGHT} />
        ) : (
          <AnalyticsReportView report={shown} />
        )}
      </Stack>
    </Container>
  );
}

function shortLink(domain: string, alias: string): string {
  return `${domain}/${alias}`;
}

/** analytics/{link id}: a reader of the link sees its analytics, and may share or download. */
function LinkAnalytics({ aliasId }: { aliasId: string }) {
  const { status } = useAuth();
  const location = useLocation();
  const access = useLinkAnalyticsAccessQuery(status === 'signedIn' ? aliasId : null);
  const [chosen, setChosen] = useStatsPeriod();
  const { shortUrlBase } = useConfig();

  if (status === 'guest') return <Navigate to={loginPathFor(location.pathname)} replace />;
  if (status === 'loading' || access.isPending) return <PageLoader />;
  if (access.isError) {
    const notFound = analyticsErrorCode(access.error) === 'alias_not_found';
    return (
      <Problem
        title={notFound ? 'Link not found' : 'Analytics unavailable'}
        message={analyticsErrorMessage(access.error)}
      />
    );
  }
  const { data } = access;
  if (data.periods.length === 0) {
    return (
      <Problem
        title="Analytics are not included"
        message={ANALYTICS_PLAN_MESSAGES.notIncluded}
        action={
          <Button component={Link} to={paths['signup.pricing']}>
            See the plans
          </Button>
        }
      />
    );
  }
  const period = effectivePeriod(chosen, data.periods);
  const name = shortLink(data.domain, data.alias);
  const url = shortUrl({ domain: data.domain, alias: data.alias }, shortUrlBase);
  return (
    <ReportLayout
      target={{ kind: 'link', aliasId: data.alias_id }}
      period={period}
      allowedPeriods={data.periods}
      onPeriodChange={setChosen}
      heading={<>Analytics for {name}</>}
      intro={
        <>
          Clicks on{' '}
          <Anchor href={url} target="_blank" rel="noreferrer">
            {name}
          </Anchor>
          , bots left out.
        </>
      }
      actions={
        (data.can_share || data.share_token || data.can_download_logs) && (
          <Stack gap="md">
            <SharePanel access={data} />
            {data.can_download_logs && (
              <DownloadLogButton
                aliasId={data.alias_id}
                domain={data.domain}
                alias={data.alias}
                period={period}
              />
            )}
          </Stack>
        )
      }
    />
  );
}

/** analytics/{share token}: the shared analytics of one link, for anyone with the address. */
function SharedAnalytics({ token }: { token: string }) {
  const [period, setPeriod] = useStatsPeriod();
  const target: AnalyticsTarget = { kind: 'shared', token };
  const probe = useAnalyticsReportQuery(target, period);
  if (probe.isPending) return <PageLoader />;
  if (probe.isError && analyticsErrorCode(probe.error) === 'analytics_share_not_found') {
    return <Problem title="Analytics not found" message={analyticsErrorMessage(probe.error)} />;
  }
  const name =
    probe.data?.domain && probe.data.alias ? shortLink(probe.data.domain, probe.data.alias) : null;
  return (
    <ReportLayout
      target={target}
      period={period}
      allowedPeriods={null}
      onPeriodChange={setPeriod}
      heading={name ? <>Analytics for {name}</> : 'Shared analytics'}
      intro="Shared analytics: clicks on this short link, bots left out."
    />
  );
}

/**
 * The route renders this while the shell still loads the account (routeTable): the link's access
 * (behind the heading) and then its report start at once instead of after the account.
 */
export function Prefetch() {
  const { hash } = useParams();
  const target = analyticsTarget(hash);
  const { status } = useAuth();
  const linkId = target.kind === 'link' && status === 'signedIn' ? target.aliasId : null;
  const access = useLinkAnalyticsAccessQuery(linkId);
  const [chosen] = useStatsPeriod();
  const periods = access.data?.periods ?? [];
  let period: StatsPeriod | null = null;
  if (target.kind === 'shared') period = chosen;
  else if (periods.length > 0) period = effectivePeriod(chosen, periods);
  useAnalyticsReportQuery(target, period);
  return null;
}

/**
 * analytics/{hash} (app-shell 2): a link's id opens its analytics for its readers; a share
 * token opens the public analytics someone shared.
 */
export default function AnalyticsPage() {
  const { hash } = useParams();
  const target = analyticsTarget(hash);
  usePageTitle('Link analytics');
  switch (target.kind) {
    case 'link':
      return <LinkAnalytics aliasId={target.aliasId} />;
    case 'shared':
      return <SharedAnalytics token={target.token} />;
    case 'invalid':
      return <Problem title="Analytics not found" message="Analytics not found." />;
  }
}
