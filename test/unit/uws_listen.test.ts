// A listener owns its port alone: uWS's default listen sets SO_REUSEPORT, under which a second
// node or wallet on a taken port would start and silently share the first one's traffic.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ListenError, listenOn, loadUws } from '../../gateway/uws.js';
import { freePort } from '../support/wallet_process.js';

describe('listenOn', () => {
  it('refuses a port another uWS listener already holds', async () => {
    const uws = loadUws();
    // A named port: the kernel never shares a port it picked for a port-0 listen anyway.
    const port = await freePort();
    const first = await listenOn(uws.App(), '127.0.0.1', port);
    const second = await listenOn(uws.App(), '127.0.0.1', port).then(
      (socket) => {
        uws.us_listen_socket_close(socket);
        return null;
      },
      (e: unknown) => e,
    );
    uws.us_listen_socket_close(first);
    assert.ok(second instanceof ListenError, 'the second listener started on the taken port');
    assert.equal(
      second.message,
      `cannot listen on 127.0.0.1:${port}: the port is in use or the address is not one of this machine's`,
    );
    // Once closed, the port is free again.
    const again = await listenOn(uws.App(), '127.0.0.1', port);
    uws.us_listen_socket_close(again);
  });
});
