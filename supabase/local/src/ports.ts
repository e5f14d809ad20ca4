import net from 'node:net';
import { StackError } from './errors.ts';

export async function assertPortFree(port: number, what: string): Promise<void> {
  const free = await new Promise<boolean>((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () =>
      server.close(() => resolve(true)),
    );
  });
  if (!free) {
    throw new StackError(
      `Port ${port} (${what}) is already in use: stop whatever holds it (\`npm run stack:down\`, or \`lsof -i :${port}\`) or choose another port with the STACK_*_PORT variables.`,
    );
  }
}

export async function waitFor(
  what: string,
  probe: () => Promise<boolean>,
  timeoutMs = 15_000,
  intervalMs = 50,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe().catch(() => false)) return;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new StackError(
    `${what} did not become ready within ${timeoutMs / 1000} s; see the log above.`,
  );
}
