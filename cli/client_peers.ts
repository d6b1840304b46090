// `mwnode client listconnectedpeers`, `ban -p ADDR` and `unban -p ADDR`: Epic's client commands
// over the node's `/v1/peers` routes with the owner credential, printed as Epic prints them, or
// as JSON with `--json`. Where Epic prints "Failed to …" and exits 0, we exit 1 with the node's
// reason: a script can tell.
import { parseSocketAddr } from '../actors/peers/addr.js';
import type { ServerConfig } from '../config/types.js';
import { stringifyJson } from '../core/json/stringify.js';
import { isJsonObject, type JsonValue } from '../core/json/value.js';
import { ClientError, formatDifficulty, ownerSecretOf, requestJson } from './client.js';

/** A bad `-p` value: a usage error, as Epic's "Invalid peer address format". */
export class PeerAddressError extends Error {
  constructor(text: string) {
    super(`invalid peer address ${JSON.stringify(text)}: expected ip:port, e.g. 10.0.0.1:3414`);
    this.name = 'PeerAddressError';
  }
}

const text = (v: JsonValue | undefined): string =>
  v === undefined || v === null ? '' : typeof v === 'object' ? stringifyJson(v) : String(v);

/** One peer as Epic's `listconnectedpeers` prints it, then a blank line. */
function peerLines(peer: JsonValue, index: number): string[] {
  if (!isJsonObject(peer)) throw new ClientError('the node listed a peer that is not an object');
  return [
    `Peer ${index}:`,
    `Capabilities: ${text(peer.capabilities)}`,
    `User agent: ${text(peer.user_agent)}`,
    `Version: ${text(peer.version)}`,
    `Peer address: ${text(peer.addr)}`,
    `Height: ${text(peer.height)}`,
    `Total difficulty: ${formatDifficulty(peer.total_difficulty ?? null)}`,
    `Direction: ${text(peer.direction)}`,
    '',
  ];
}

/** The connected peers: Epic's text, or the node's JSON array with `json`. */
export async function listConnectedPeers(config: ServerConfig, json: boolean): Promise<string> {
  const peers = await requestJson(
    config.apiHttpAddr,
    'GET',
    '/v1/peers/connected',
    ownerSecretOf(config),
  );
  if (!Array.isArray(peers))
    throw new ClientError('the node answered something that is not a list');
  if (json) return `${stringifyJson(peers, { pretty: true })}\n`;
  return peers
    .flatMap(peerLines)
    .map((l) => `${l}\n`)
    .join('');
}

/** Bans or unbans `addrText`; the line Epic prints, or a JSON object with `json`. */
export async function setPeerBan(
  config: ServerConfig,
  addrText: string,
  ban: boolean,
  json: boolean,
): Promise<string> {
  if (parseSocketAddr(addrText) === null) throw new PeerAddressError(addrText);
  const verb = ban ? 'ban' : 'unban';
  try {
    await requestJson(
      config.apiHttpAddr,
      'POST',
      `/v1/peers/${addrText}/${verb}`,
      ownerSecretOf(config),
    );
  } catch (e) {
    if (e instanceof ClientError)
      throw new ClientError(`Failed to ${verb} peer ${addrText}: ${e.message}`);
    throw e;
  }
  if (json) return `${stringifyJson({ peer: addrText, banned: ban }, { pretty: true })}\n`;
  return `Successfully ${verb}ned peer ${addrText}\n`;
}
