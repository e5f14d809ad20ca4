import net from 'node:net';

/**
 * The least a Node gateway can do on the REST path, for `bench:stack -- --rest` to measure beside
 * the real one: every connection to 127.0.0.1:<listen> piped, byte for byte, to
 * 127.0.0.1:<target>, with no HTTP parsing, rewriting or key check. Run as a process of its own
 * (as the gateway is), so that its CPU is read apart from the load generator's.
 *
 *   node --import tsx bench/support/socket-pipe.ts <listen port> <target port>
 */

const [listenPort = NaN, targetPort = NaN] = process.argv.slice(2).map(Number);
if (!Number.isInteger(listenPort) || !Number.isInteger(targetPort)) {
  console.error('usage: socket-pipe.ts <listen port> <target port>');
  process.exit(2);
}

net
  .createServer({ noDelay: true }, (client) => {
    const upstream = net.connect({ port: targetPort, host: '127.0.0.1', noDelay: true });
    client.pipe(upstream).pipe(client);
    const cut = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', cut);
    upstream.on('error', cut);
  })
  .listen(listenPort, '127.0.0.1');
