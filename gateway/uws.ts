// Loads uWebSockets.js once. The header-size cap is read by the native module when it loads,
// so it is set here, before the first require, and nowhere else.
import { createRequire } from 'node:module';

export type Uws = typeof import('@trufflesuite/uws-js-unofficial');
export type UwsApp = ReturnType<Uws['App']>;
export type UwsResponse = Parameters<Parameters<UwsApp['any']>[1]>[0];
export type UwsRequest = Parameters<Parameters<UwsApp['any']>[1]>[1];
export type UwsListenSocket = Parameters<Uws['us_listen_socket_close']>[0];

/** Request line plus headers; 64 KiB lets a 500-commitment `byids` URL (≈ 34 KiB) through. */
export const MAX_HEADERS_SIZE = 64 * 1024;

let loaded: Uws | null = null;

export function loadUws(): Uws {
  if (loaded === null) {
    process.env.UWS_HTTP_MAX_HEADERS_SIZE = String(MAX_HEADERS_SIZE);
    loaded = createRequire(import.meta.url)('@trufflesuite/uws-js-unofficial') as Uws;
  }
  return loaded;
}

/** uWS says only that the listen failed: usually the port is taken, or the host is not ours. */
export class ListenError extends Error {
  constructor(host: string, port: number) {
    super(
      `cannot listen on ${host}:${port}: the port is in use or the address is not one of this machine's`,
    );
    this.name = 'ListenError';
  }
}

/**
 * uSockets' LIBUS_LISTEN_EXCLUSIVE_PORT. Without it uWS sets SO_REUSEPORT, so a second node or
 * wallet on a taken port would start "successfully" and share the traffic with the first.
 */
const EXCLUSIVE_PORT = 1;

/** The (host, port, options, callback) form uWS takes at run time; its typings omit it. */
type ListenWithOptions = (
  host: string,
  port: number,
  options: number,
  cb: (socket: UwsListenSocket | false) => void,
) => UwsApp;

/** Listens on `host:port` alone; rejects with a ListenError. */
export function listenOn(app: UwsApp, host: string, port: number): Promise<UwsListenSocket> {
  return new Promise((resolve, reject) => {
    const listen = app.listen as unknown as ListenWithOptions;
    listen.call(app, host, port, EXCLUSIVE_PORT, (socket) => {
      if (socket === false) reject(new ListenError(host, port));
      else resolve(socket);
    });
  });
}
