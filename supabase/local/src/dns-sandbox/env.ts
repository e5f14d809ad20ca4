/**
 * What points the functions at this stack's DNS sandbox: the name server domain verification
 * asks (DNS_NAME_SERVER, host:port) and the API that sets records (DNS_SANDBOX_API). Production
 * leaves DNS_NAME_SERVER unset (the system's resolver) and has no sandbox.
 *
 * Customer domains point at the redirect host: a CNAME to DOMAIN_CNAME_TARGET, or A records to
 * DOMAIN_A_ADDRESSES (comma-separated). Locally that is the gateway on loopback.
 */
export function dnsSandboxEnv(gatewayUrl: string, dnsPort: number) {
  return {
    DNS_NAME_SERVER: `127.0.0.1:${dnsPort}`,
    DNS_SANDBOX_API: `${gatewayUrl}/sandbox/dns`,
    DOMAIN_CNAME_TARGET: 'redirect.shortlane.localhost',
    DOMAIN_A_ADDRESSES: '127.0.0.1',
  };
}
