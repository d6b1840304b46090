// The flags `send` and `pay` share (epic-wallet's names and defaults).
import type { Command } from 'commander';
import { fromHex } from '../../core/bytes.js';
import type { SendOptions } from './commands.js';

export function sendFlags(c: Command): Command {
  return c
    .option('-c, --min_conf <n>', 'Minimum confirmations of spent outputs', '10')
    .option('-s, --selection <strategy>', 'all or smallest', 'smallest')
    .option('-o, --change_outputs <n>', 'Number of change outputs', '1')
    .option('-g, --message <text>', 'Participant message')
    .option('-b, --ttl_blocks <n>', 'Blocks after which the transaction is refused')
    .option('-z, --proof_address <hex>', "The recipient's payment proof address (ed25519, hex)")
    .option('-f, --fluff', 'Fluff the transaction (no Dandelion stem)');
}

type Opts = Record<string, string | boolean | undefined>;
const text = (v: string | boolean | undefined): string | null => (typeof v === 'string' ? v : null);

export function sendOptionsOf(amount: string, o: Opts): SendOptions {
  const ttl = text(o.ttl_blocks);
  const proof = text(o.proof_address);
  return {
    amount,
    method: o.method === 'file' ? 'file' : 'http',
    dest: text(o.dest) ?? '',
    minConf: BigInt(String(o.min_conf ?? '10')),
    useAll: o.selection === 'all',
    changeOutputs: Number(o.change_outputs ?? '1'),
    message: text(o.message),
    ttlBlocks: ttl === null ? null : BigInt(ttl),
    fluff: o.fluff === true,
    proofAddress: proof === null ? null : fromHex(proof),
  };
}
