// A small in-test WalletApi: a password-protected "wallet" issuing tokens, errors shaped as
// WalletFailure (`err` on an Error), and a record of every call with its decoded arguments.
import type { WalletApi } from '../../../actors/wallet/api.js';
import { WalletFailure } from '../../../core/wallet/errors.js';
import type { OwnerAccessOptions } from '../../../gateway/wallet/owner_access.js';
import {
  startWalletGateway,
  type WalletGateway,
  type WalletGatewayOptions,
} from '../../../gateway/wallet/server.js';

const FakeFailure = WalletFailure;

export const PASSWORD = 'passwoid';

export interface Fake {
  api: WalletApi;
  readonly calls: [string, unknown[]][];
  synced: boolean;
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

export function fakeApi(): Fake {
  let token: string | null = null;
  let counter = 1;
  const state: Fake = { api: undefined as unknown as WalletApi, calls: [], synced: true };
  const checkToken = (t: Uint8Array | null): void => {
    if (token === null) throw new FakeFailure({ Lifecycle: 'Wallet has not been opened' });
    if (t === null || hex(t) !== token) throw new FakeFailure('InvalidKeychainMask');
  };
  const special: Record<string, (...args: never[]) => unknown> = {
    openWallet: async (_name: string | null, password: string) => {
      if (password !== PASSWORD)
        throw new FakeFailure({ Lifecycle: 'Error opening wallet (is password correct?)' });
      token = (counter++).toString(16).padStart(64, '0');
      return token;
    },
    retrieveSummaryInfo: async (t: Uint8Array | null, refresh: boolean, minConf: bigint) => {
      checkToken(t);
      return [refresh, { last_confirmed_height: '5', minimum_confirmations: String(minConf) }];
    },
    initSendTx: async (t: Uint8Array | null) => {
      checkToken(t);
      throw new FakeFailure({
        NotEnoughFunds: {
          available: 0,
          available_disp: '0.00000000',
          needed: 600000000000n,
          needed_disp: '6000.00000000',
        },
      });
    },
    accounts: async (t: Uint8Array | null) => {
      checkToken(t);
      return [{ label: 'default', path: '0200000000000000000000000000000000' }];
    },
    checkVersion: async () => ({ foreign_api_version: 2, supported_slate_versions: ['V3', 'V2'] }),
    nodeHeight: async () => {
      throw new Error('disk on fire');
    },
  };
  state.api = new Proxy({} as WalletApi, {
    get: (_target, name: string) => {
      const f = special[name];
      if (name === 'isNodeSynced') return () => state.synced;
      return (...args: unknown[]) => {
        state.calls.push([name, args]);
        return f === undefined
          ? Promise.resolve(null)
          : (f as (...a: unknown[]) => unknown)(...args);
      };
    },
  });
  return state;
}

export interface FakeListeners {
  readonly fake: Fake;
  readonly gw: WalletGateway;
  /** `http://127.0.0.1:<port>` of the Owner listener (with `/v2/foreign`). */
  readonly owner: string;
  /** The same for the Foreign listener; '' when there is none. */
  readonly foreign: string;
}

/** Both listeners on loopback over a new fake; `owner` adds its guards, `rest` the other options. */
export async function startFakeListeners(
  owner: OwnerAccessOptions = {},
  rest: Partial<Omit<WalletGatewayOptions, 'api' | 'owner'>> = {},
): Promise<FakeListeners> {
  const fake = fakeApi();
  const gw = await startWalletGateway({
    api: fake.api,
    owner: { host: '127.0.0.1', port: 0, includeForeign: true, ...owner },
    foreign: { host: '127.0.0.1', port: 0 },
    ...rest,
  });
  const url = (port: number | null) => (port === null ? '' : `http://127.0.0.1:${port}`);
  return { fake, gw, owner: url(gw.ownerPort), foreign: url(gw.foreignPort) };
}
