/**
 * Which hosts the local stack's pg_net worker may reach: this machine (localhost, *.localhost,
 * 127.0.0.0/8, ::1) and the host names listed in STACK_NET_ALLOWED_HOSTS (comma-separated; a
 * leading `*.` allows every subdomain). A database on a developer's machine must not become a
 * way to send requests anywhere; requests to other hosts are answered with an error_msg.
 */
export function parseAllowedHosts(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((host) => host.trim().toLowerCase())
    .filter(Boolean);
}

function isLoopback(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '[::1]' || host === '::1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** `hostname` as URL gives it (lower case, IPv6 in brackets). */
export function isAllowedHost(hostname: string, allowed: readonly string[]): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (isLoopback(host)) return true;
  return allowed.some((entry) =>
    entry.startsWith('*.') ? host.endsWith(entry.slice(1)) : host === entry,
  );
}

export function refusedHostMessage(hostname: string): string {
  return `Host ${hostname} is not reachable from the local stack: pg_net here sends to loopback and to the hosts in STACK_NET_ALLOWED_HOSTS only`;
}
