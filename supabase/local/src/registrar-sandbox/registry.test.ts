import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RegistrarRegistry } from './registry.ts';

const dirs: string[] = [];
const stateFile = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'registrar-sandbox-'));
  dirs.push(dir);
  return path.join(dir, 'registrar-sandbox.json');
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const at = (iso: string) => () => Date.parse(iso);

describe('registrar sandbox registry', () => {
  it('keeps registrations, the taken list and order numbers across a restart', () => {
    const file = stateFile();
    const first = new RegistrarRegistry({ stateFile: file, now: at('2026-11-27T08:00:00Z') });
    const order = first.createDomain({ domain: { domainName: 'kept.com' } });
    first.setTaken('held.net', true);

    const again = new RegistrarRegistry({ stateFile: file, now: at('2026-11-28T08:00:00Z') });
    expect(again.getDomain('kept.com')).toEqual(order.domain);
    expect(again.taken()).toContain('held.net');
    expect(again.renewDomain('kept.com', {}).order).toBe(order.order + 1);
  });

  it('starts empty from a damaged state file rather than failing the stack', () => {
    const file = stateFile();
    fs.writeFileSync(file, '{ not json');
    const registry = new RegistrarRegistry({ stateFile: file });
    expect(registry.domains()).toEqual([]);
    expect(registry.taken()).toContain('example.com');
  });

  it('dates a registration from now and refuses to renew past ten years ahead', () => {
    const registry = new RegistrarRegistry({ now: at('2026-02-28T12:00:00Z') });
    const { domain } = registry.createDomain({ domain: { domainName: 'dated.io' }, years: 3 });
    expect(domain).toMatchObject({
      createDate: '2026-02-28T12:00:00Z',
      expireDate: '2029-02-28T12:00:00Z',
    });
    expect(registry.renewDomain('dated.io', { years: 7 }).domain.expireDate).toBe(
      '2036-02-28T12:00:00Z',
    );
    expect(() => registry.renewDomain('dated.io', { years: 1 })).toThrow(
      expect.objectContaining({ status: 400 }),
    );
  });
});
