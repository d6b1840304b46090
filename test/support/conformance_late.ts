// The conformance rows that change the chain, run last: compaction, then block 7 through the
// mining flow (step 2 replayed as a row, step 3 submitting the block mined from it).
import { parseJson } from '../../core/json/parse.js';
import type { JsonValue } from '../../core/json/value.js';
import { blockToJson } from '../../core/serde/block.js';
import { kernelToJson, outputToJson } from '../../core/serde/transaction.js';
import type { Block } from '../../core/types/block.js';
import { type Row, rpcRow, v2Text } from './conformance_rows.js';
import { foreignOk, mineBlock } from './miner.js';

/** The late rows, and block 7 they submit (a reorg replaces it afterwards). */
export async function lateRows(url: string): Promise<{ rows: Row[]; block: Block }> {
  const template = (await foreignOk(url, 'get_block_template', [])) as {
    transactions: JsonValue;
  };
  const block = await mineBlock(url);
  const output = block.body.outputs.find((o) => o.features === 'Coinbase');
  const kernel = block.body.kernels.find((k) => k.features.kind === 'Coinbase');
  if (output === undefined || kernel === undefined) throw new Error('block 7 has a coinbase');
  const coinbase = { output: outputToJson(output), kernel: kernelToJson(kernel) };
  const rows: Row[] = [
    rpcRow('owner', 'compact_chain', [], { ok: null }, '§3'),
    {
      ...rpcRow('foreign', 'finalize_block_template', [coinbase], { ok: null }, '§8.2'),
      // The header (its timestamp is the current second) and pre_pow come from the reply.
      expectFrom: (got) => {
        const ok = (
          parseJson(got) as { result?: { Ok?: { header?: JsonValue; pre_pow?: JsonValue } } }
        ).result?.Ok;
        return v2Text({
          id: 1,
          jsonrpc: '2.0',
          result: {
            Ok: {
              coinbase_kernel: coinbase.kernel,
              coinbase_output: coinbase.output,
              header: ok?.header ?? null,
              height: 7,
              pre_pow: ok?.pre_pow ?? null,
              transactions: template.transactions,
            },
          },
        });
      },
    },
    rpcRow('foreign', 'submit_block', [blockToJson(block)], { ok: null }, '§8.3'),
  ];
  return { rows, block };
}
