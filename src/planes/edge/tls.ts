/**
 * The TLS side of the edge's HTTPS listener: which certificate it presents for each name (SNI),
 * chosen by EdgeCertificates (src/domain/certificates/edge-certificates.ts), and the oldest
 * protocol the name's zone accepts.
 *
 * OpenSSL settles the protocol version before it asks for the name's certificate, and a context
 * chosen by SNI cannot raise it again: the listener itself accepts TLS 1.0 (for zones with
 * EnableTLS1), and the certificate callback refuses a handshake whose negotiated version is older
 * than the name's zone allows. TLS 1.0 and 1.1 need OpenSSL security level 0 (their handshakes sign
 * with SHA-1); clients that speak TLS 1.2 or 1.3 still get the strong suites they offer.
 */
import type { ServerOptions } from 'node:https';
import type { Server } from 'node:tls';
import { createSecureContext, DEFAULT_CIPHERS, type SecureContext, type TLSSocket } from 'node:tls';
import { BoundedMap } from '../../domain/bounded-map.js';
import type { CertificateMaterial, TlsCertificates, TlsVersion } from '../../domain/certificates/edge-certificates.js';

const CIPHERS = `${DEFAULT_CIPHERS}:@SECLEVEL=0`;
const MAX_CONTEXTS = 10_000;
/** How often the certificate of handshakes without SNI is looked at again (it is renewed a month before its end). */
const DEFAULT_REFRESH_MS = 6 * 60 * 60 * 1000;

const ORDER: Record<string, number> = { TLSv1: 1, 'TLSv1.1': 2, 'TLSv1.2': 3, 'TLSv1.3': 4 };

/** Whether a negotiated protocol (`TLSv1.2`) is at least `minimum`. */
export const allowedVersion = (negotiated: string, minimum: TlsVersion) => (ORDER[negotiated] ?? 0) >= (ORDER[minimum] ?? 3);

export class ProtocolTooOld extends Error {
  constructor(
    readonly servername: string,
    readonly negotiated: string,
    readonly minimum: TlsVersion,
  ) {
    super(`${servername} accepts ${minimum} or newer; the client negotiated ${negotiated}`);
  }
}

export interface EdgeTlsHooks {
  /** A certificate could not be chosen (the store unavailable): the handshake fails, this is told why. */
  onError?: (error: unknown, servername: string) => void;
}

/** Secure contexts per certificate, so a busy name does not parse its key on every handshake. */
class ContextCache {
  private readonly contexts = new BoundedMap<string, SecureContext>(MAX_CONTEXTS);

  get(material: CertificateMaterial): SecureContext {
    const key = material.certificatePem;
    let context = this.contexts.get(key);
    if (!context) {
      context = createSecureContext({ cert: material.certificatePem, key: material.privateKeyPem, minVersion: 'TLSv1', ciphers: CIPHERS });
      this.contexts.set(key, context);
    }
    return context;
  }
}

/**
 * The options of the edge's HTTPS server: the default certificate (handshakes without SNI) and an
 * SNICallback that presents each name's certificate. Resolves once the default certificate exists
 * (the local authority is created in the store on first use).
 */
export async function edgeTlsOptions(certificates: TlsCertificates, hooks: EdgeTlsHooks = {}): Promise<ServerOptions> {
  const contexts = new ContextCache();
  const fallback = await certificates.forName(undefined);
  return {
    cert: fallback.certificatePem,
    key: fallback.privateKeyPem,
    minVersion: 'TLSv1',
    ciphers: CIPHERS,
    // Node calls it with the handshake's socket as `this`, the protocol already negotiated.
    SNICallback(this: TLSSocket | undefined, servername: string, done: (error: Error | null, context?: SecureContext) => void) {
      const negotiated = typeof this?.getProtocol === 'function' ? this.getProtocol() : null;
      certificates.forName(servername).then(
        (material) => {
          if (negotiated && !allowedVersion(negotiated, material.minVersion)) {
            done(new ProtocolTooOld(servername, negotiated, material.minVersion));
            return;
          }
          done(null, contexts.get(material));
        },
        (error: unknown) => {
          hooks.onError?.(error, servername);
          done(error instanceof Error ? error : new Error(String(error)));
        },
      );
    },
  };
}

/**
 * Keeps the certificate of handshakes without SNI current on a running server (it is issued for
 * 90 days). Returns the function that stops it; the timer never holds the process open.
 */
export function keepDefaultCertificateFresh(server: Server, certificates: TlsCertificates, everyMs = DEFAULT_REFRESH_MS): () => void {
  let current: string | undefined;
  const timer = setInterval(() => {
    certificates.forName(undefined).then(
      (material) => {
        if (material.certificatePem === current) return;
        current = material.certificatePem;
        server.setSecureContext({ cert: material.certificatePem, key: material.privateKeyPem, minVersion: 'TLSv1', ciphers: CIPHERS });
      },
      () => {
        // The store is unavailable: the certificate in use stays until the next attempt.
      },
    );
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
