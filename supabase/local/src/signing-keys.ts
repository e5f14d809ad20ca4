import fs from 'node:fs/promises';
import path from 'node:path';
import { generate } from 'selfsigned';

/**
 * An RSA key and its self-signed certificate (PEM), made once and kept in the stack's state so
 * that what an identity provider or a service provider registered (a certificate in metadata)
 * survives restarts, as a real deployment's keys do.
 */
export interface SigningPair {
  privateKey: string;
  certificate: string;
}

const TEN_YEARS_MS = 10 * 365 * 24 * 3600 * 1000;

export async function loadOrCreateSigningPair(
  dir: string,
  name: string,
  commonName: string,
): Promise<SigningPair> {
  const keyFile = path.join(dir, `${name}-key.pem`);
  const certFile = path.join(dir, `${name}-cert.pem`);
  try {
    const [privateKey, certificate] = await Promise.all([
      fs.readFile(keyFile, 'utf8'),
      fs.readFile(certFile, 'utf8'),
    ]);
    return { privateKey, certificate };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const now = Date.now();
  const made = await generate([{ name: 'commonName', value: commonName }], {
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate: new Date(now - 60_000),
    notAfterDate: new Date(now + TEN_YEARS_MS),
  });
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  // Written under temporary names first: two processes starting at once never read half a pair.
  const suffix = `.${process.pid}.tmp`;
  await fs.writeFile(keyFile + suffix, made.private, { mode: 0o600 });
  await fs.writeFile(certFile + suffix, made.cert);
  await fs.rename(certFile + suffix, certFile);
  await fs.rename(keyFile + suffix, keyFile);
  return { privateKey: made.private, certificate: made.cert };
}

/** The certificate's base64 body, as it appears in <ds:X509Certificate>. */
export function certificateBody(pem: string): string {
  return pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
}
