/**
 * How the audit page shows an event: readable action names, what changed between before and
 * after, the filters as the call takes them, and the CSV export's lines.
 */
import { csvText } from '@shortlane/shared/csv.ts';
import type { AuditEvent, AuditFilters } from '../../data/audit-trail-query.ts';

const SUBJECTS: Record<string, string> = {
  organization: 'Organization',
  organization_role: 'Role',
  organization_user: 'Organization user',
  team: 'Team',
  team_member: 'Team member',
  invitation: 'Invitation',
  domain: 'Domain',
  api_token: 'API token',
  subscription: 'Subscription',
  link: 'Link',
};

/** "team_member.updated" → "Team member updated"; an unknown subject keeps its own words. */
export function actionLabel(action: string): string {
  const [subject = '', verb = ''] = action.split('.');
  const name = SUBJECTS[subject] ?? subject.replace(/_/g, ' ');
  const label = `${name} ${verb}`.trim();
  return label.charAt(0).toUpperCase() + label.slice(1);
}

export interface FieldChange {
  field: string;
  before: string | null;
  after: string | null;
}

const shown = (value: unknown): string | null =>
  value === undefined ? null : typeof value === 'string' ? value : JSON.stringify(value);

/** The fields whose value differs between before and after, by name. */
export function changedFields(event: Pick<AuditEvent, 'old_values' | 'new_values'>): FieldChange[] {
  const before = event.old_values ?? {};
  const after = event.new_values ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return fields.flatMap((field) => {
    const change = { field, before: shown(before[field]), after: shown(after[field]) };
    return change.before === change.after ? [] : [change];
  });
}

export const actorLabel = (event: Pick<AuditEvent, 'actor_email' | 'actor_id'>) =>
  event.actor_email ?? (event.actor_id ? 'A deleted user' : 'System');

/** The period's days (yyyy-mm-dd, the user's calendar) as the call's [from, to) instants. */
export function periodFilter(fromDay: string, toDay: string): Pick<AuditFilters, 'from' | 'to'> {
  const startOf = (day: string) => {
    const [year, month, date] = day.split('-').map(Number);
    return new Date(year!, month! - 1, date!);
  };
  const valid = (day: string) => /^\d{4}-\d{2}-\d{2}$/.test(day);
  const to = valid(toDay) ? startOf(toDay) : null;
  to?.setDate(to.getDate() + 1);
  return {
    from: valid(fromDay) ? startOf(fromDay).toISOString() : null,
    to: to ? to.toISOString() : null,
  };
}

export const AUDIT_CSV_HEADER = [
  'time',
  'actor',
  'action',
  'target',
  'subject',
  'subject_id',
  'ip',
  'before',
  'after',
];

export function auditCsv(events: readonly AuditEvent[]): string {
  return csvText(
    AUDIT_CSV_HEADER,
    events.map((event) => [
      event.created_at,
      actorLabel(event),
      event.action,
      event.target ?? '',
      event.subject_table,
      event.subject_id ?? '',
      event.ip ?? '',
      event.old_values ? JSON.stringify(event.old_values) : '',
      event.new_values ? JSON.stringify(event.new_values) : '',
    ]),
  );
}

export const auditFileName = (organizationSlug: string, now = new Date()) =>
  `audit-${organizationSlug}-${now.toISOString().slice(0, 10)}.csv`.replace(
    /[^A-Za-z0-9._-]+/g,
    '_',
  );
