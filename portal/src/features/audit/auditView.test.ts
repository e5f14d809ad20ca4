import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../data/audit-trail-query.ts';
import {
  actionLabel,
  actorLabel,
  auditCsv,
  auditFileName,
  changedFields,
  periodFilter,
} from './auditView.ts';

const EVENT: AuditEvent = {
  id: 7,
  created_at: '2026-11-20T10:00:00.000Z',
  actor_id: 'u1',
  actor_email: 'ann@example.com',
  actor_name: 'Ann',
  action: 'team_member.updated',
  subject_table: 'team_members',
  subject_id: 'u2',
  target: 'bob@example.com in Growth',
  ip: '203.0.113.7',
  old_values: { role: 'member', team_id: 't1' },
  new_values: { role: 'viewer', team_id: 't1' },
};

describe('the audit page’s view of an event', () => {
  it('names actions as people say them', () => {
    expect(actionLabel('team_member.updated')).toBe('Team member updated');
    expect(actionLabel('link.archived')).toBe('Link archived');
    expect(actionLabel('api_token.deleted')).toBe('API token deleted');
    expect(actionLabel('something_new.happened')).toBe('Something new happened');
  });

  it('lists only the fields that changed, with before and after', () => {
    expect(changedFields(EVENT)).toEqual([{ field: 'role', before: 'member', after: 'viewer' }]);
    expect(changedFields({ old_values: null, new_values: { name: 'Acme', tags: ['a'] } })).toEqual([
      { field: 'name', before: null, after: 'Acme' },
      { field: 'tags', before: null, after: '["a"]' },
    ]);
    expect(changedFields({ old_values: { name: 'Acme' }, new_values: null })).toEqual([
      { field: 'name', before: 'Acme', after: null },
    ]);
  });

  it('names who acted, or says nobody signed in did', () => {
    expect(actorLabel(EVENT)).toBe('ann@example.com');
    expect(actorLabel({ actor_id: null, actor_email: null })).toBe('System');
    expect(actorLabel({ actor_id: 'gone', actor_email: null })).toBe('A deleted user');
  });

  it('turns the chosen days into an inclusive start and an exclusive end', () => {
    const { from, to } = periodFilter('2026-11-01', '2026-11-02');
    expect(new Date(from!).getDate()).toBe(1);
    expect(new Date(to!).getDate()).toBe(3);
    expect(new Date(to!).getTime() - new Date(from!).getTime()).toBeGreaterThanOrEqual(
      47 * 3_600_000,
    );
    expect(periodFilter('', 'nonsense')).toEqual({ from: null, to: null });
  });

  it('exports CSV with the values as JSON and formula cells defused', () => {
    const csv = auditCsv([{ ...EVENT, target: '=HYPERLINK("http://evil")' }]);
    const [header, line] = csv.split('\r\n');
    expect(header).toBe('time,actor,action,target,subject,subject_id,ip,before,after');
    expect(line).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(line).toContain('"{""role"":""member"",""team_id"":""t1""}"');
    expect(auditFileName('acme co', new Date('2026-11-27T00:00:00Z'))).toBe(
      'audit-acme_co-2026-11-27.csv',
    );
  });
});
