import dns2 from 'dns2';
import type { ZoneStore } from './zones.ts';

/**
 * The sandbox's name server: answers authoritatively, over UDP and TCP on one loopback port,
 * from a ZoneStore. The functions resolve through it (DNS_NAME_SERVER) so that a domain's
 * verification runs real DNS queries on this machine.
 */

const { Packet } = dns2;

export interface DnsServerHandle {
  port: number;
  stop(): Promise<void>;
}

/** Our zones' SOA, for negative answers (RFC 2308: its minimum is the negative-caching TTL). */
function soa(zone: string) {
  return new Packet.Resource({
    name: zone,
    type: Packet.TYPE.SOA,
    class: Packet.CLASS.IN,
    ttl: 60,
    primary: `ns.${zone}`,
    admin: `hostmaster.${zone}`,
    serial: 1,
    refresh: 3600,
    retry: 600,
    expiration: 86400,
    minimum: 5,
  });
}

const TYPE_NAMES = new Map<number, string>(
  Object.entries(Packet.TYPE).map(([name, code]) => [code, name]),
);

export async function startDnsServer(
  store: ZoneStore,
  port: number,
  log: (line: string) => void,
): Promise<DnsServerHandle> {
  const server = dns2.createServer({
    udp: true,
    tcp: true,
    handle(request, send) {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      if (!question) {
        response.header.rcode = Packet.RCODE.FORMERR;
        void send(response);
        return;
      }
      const answer = store.answer(question.name, TYPE_NAMES.get(question.type) ?? '');
      response.header.aa = answer.rcode === 'REFUSED' ? 0 : 1;
      response.header.ra = 0;
      response.header.rcode = Packet.RCODE[answer.rcode];
      if (answer.rcode !== 'REFUSED') {
        for (const record of answer.records) {
          const common = {
            name: record.name,
            type: Packet.TYPE[record.type],
            class: Packet.CLASS.IN,
            ttl: record.ttl,
          };
          if (record.type === 'A' || record.type === 'AAAA')
            response.answers.push(new Packet.Resource({ ...common, address: record.value }));
          else if (record.type === 'CNAME')
            response.answers.push(new Packet.Resource({ ...common, domain: record.value }));
          else response.answers.push(new Packet.Resource({ ...common, data: record.value }));
        }
        if (answer.records.length === 0) response.authorities.push(soa(answer.zone));
      }
      void send(response).catch((error: unknown) => log(`dns sandbox: ${String(error)}`));
    },
  });
  const failed = new Promise<never>((_, reject) => {
    server.once('error', (error, transport) =>
      reject(
        new Error(`DNS sandbox could not listen on ${transport} port ${port}: ${error.message}`),
      ),
    );
  });
  const listening = server.listen({
    udp: { port, address: '127.0.0.1' },
    tcp: { port, address: '127.0.0.1' },
  });
  try {
    await Promise.race([listening, failed]);
  } catch (error) {
    await Promise.race([server.close(), new Promise((resolve) => setTimeout(resolve, 500))]);
    throw error;
  }
  server.on('error', (error) => log(`dns sandbox: ${error.message}`));
  return { port, stop: () => server.close() };
}
