// `listen` and `owner_api`: the wallet actor on its own thread behind the wallet listeners,
// until SIGINT or SIGTERM.
import { formatSocketAddr } from '../../config/addr.js';
import { ensureApiSecret } from '../../config/secrets.js';
import type { WalletConfig } from '../../config/wallet_toml.js';
import { WalletMetrics } from '../../gateway/wallet/metrics.js';
import { startWalletGateway } from '../../gateway/wallet/server.js';
import { log, warn } from '../../node/log.js';
import { installLogSink } from '../../node/log_sink.js';
import { openSession } from './session.js';

export interface ListenChoice {
  readonly foreign: boolean;
  readonly owner: boolean;
  /** `--run_foreign` or `owner_api_include_foreign`. */
  readonly ownerIncludesForeign: boolean;
  /** `-l`: the port of the listener the command starts. */
  readonly port: number | null;
  /** `--external` (listen): bind 0.0.0.0. */
  readonly external: boolean;
}

function untilSignal(): Promise<void> {
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}

export async function runListeners(
  config: WalletConfig,
  password: string,
  choice: ListenChoice,
): Promise<number> {
  // Before the wallet's thread starts: it learns from the environment to forward to the sink.
  const sink = installLogSink(config.logging);
  const session = await openSession(config, password, 'thread');
  const foreignHost = choice.external ? '0.0.0.0' : config.apiListenInterface;
  try {
    const gateway = await startWalletGateway({
      api: session.api,
      owner: choice.owner
        ? {
            host: config.ownerApiListenInterface,
            port: choice.port ?? config.ownerApiListenPort,
            includeForeign: choice.ownerIncludesForeign,
            allowedOrigins: config.ownerApiAllowedOrigins,
            // The node's rule: a missing or empty file gets a fresh secret, never "no secret".
            apiSecret: config.apiSecretPath === null ? null : ensureApiSecret(config.apiSecretPath),
          }
        : null,
      foreign: choice.foreign
        ? { host: foreignHost, port: choice.port ?? config.apiListenPort }
        : null,
      tls: {
        certificateFile: config.tlsCertificateFile,
        certificateKey: config.tlsCertificateKey,
      },
      log: (event, fields) => log(`wallet_${event}`, fields),
      // `/metrics` on the Owner listener, under its guard (gateway/wallet/metrics.ts).
      metrics: choice.owner ? new WalletMetrics(session.metrics) : null,
    });
    const tls = config.tlsCertificateFile !== null;
    if (gateway.ownerPort !== null)
      log('listening', {
        api: 'owner',
        addr: formatSocketAddr({ host: config.ownerApiListenInterface, port: gateway.ownerPort }),
        tls,
      });
    if (gateway.foreignPort !== null)
      log('listening', {
        api: 'foreign',
        addr: formatSocketAddr({ host: foreignHost, port: gateway.foreignPort }),
        tls,
      });
    // Epic would also publish the foreign API as an onion service; said once, not pretended.
    if (gateway.foreignPort !== null && config.tor.useTorListener)
      warn('tor_not_implemented', {
        key: 'tor.use_tor_listener',
        message:
          'use_tor_listener = true, but mwwallet runs no Tor listener: the foreign API is served over HTTP(S) only',
      });
    await untilSignal();
    gateway.close();
    return 0;
  } finally {
    await session.close();
    sink.close();
  }
}
