// The JSON-RPC full path as the fast path (gateway/fast_rpc.ts) calls it, over a method table:
// the reply, whether every call was pure, and whether none failed.
import type { FullPath } from '../../gateway/fast_rpc.js';
import { handleJsonRpc, type MethodTable } from '../../gateway/jsonrpc.js';
import type { RpcUsage } from '../../gateway/reply_cache.js';

/** The full path over `table`; `onRun` hears each run. */
export function fullPathOver(table: MethodTable, onRun: () => void = () => {}): FullPath {
  return async (body) => {
    onRun();
    let ok = true;
    const usage: RpcUsage = {
      impure: false,
      calls: {
        call: (_, good) => {
          if (!good) ok = false;
        },
      },
    };
    const response = await handleJsonRpc(body, table, usage);
    return { response, pure: !usage.impure, ok };
  };
}
