// The WebSocket feed of mining templates on the foreign surface (`/v2/foreign/ws`): the
// foreign credential is checked at the upgrade, exactly as for a POST to `/v2/foreign`; a
// subscriber first receives the current template, then every new one (template_feed.ts), each
// as one JSON-RPC 2.0 notification `{"jsonrpc":"2.0","method":"block_template","params":{…}}`.
// The feed is one-way: what a client sends is ignored. Bounds: a cap on subscribers (503 beyond),
// small incoming messages, and a subscriber that does not read is closed once 4 MiB wait for it.
import { stringifyJson } from '../core/json/stringify.js';
import type { Resolution } from './dispatch.js';
import { busyResponse } from './errors.js';
import { type HttpResponse, STATUS_TEXT } from './http.js';
import type { PublishedTemplate, TemplateFeed } from './template_feed.js';
import type { UwsApp, UwsRequest, UwsResponse } from './uws.js';

export const TEMPLATE_WS_PATH = '/v2/foreign/ws';
const TOPIC = 'block_template';
export const DEFAULT_MAX_SUBSCRIBERS = 1024;
const MAX_BACKPRESSURE = 4 << 20;
const MAX_INCOMING = 4096;
/** Seconds without traffic before uWS pings (and then closes a peer that does not answer). */
const IDLE_SECS = 120;

export interface TemplateSocketsOptions {
  readonly feed: TemplateFeed;
  /** The credential check of a POST to the foreign surface. */
  readonly authorize: (req: UwsRequest) => Resolution;
  readonly maxSubscribers?: number;
}

interface Subscriber {
  closed: boolean;
}

/** Compact, keys sorted as Epic prints them; once per template. */
function notificationText(): (p: PublishedTemplate) => string {
  let last: { p: PublishedTemplate; text: string } | null = null;
  return (p) => {
    if (last?.p !== p) {
      const note = { jsonrpc: '2.0', method: TOPIC, params: p.template };
      last = { p, text: stringifyJson(note, { sortKeys: true }) };
    }
    return last.text;
  };
}

function refuse(res: UwsResponse, r: HttpResponse): void {
  res.cork(() => {
    res.writeStatus(STATUS_TEXT[r.status] ?? `${r.status}`);
    for (const [name, value] of r.headers) res.writeHeader(name, value);
    res.end(r.body, true);
  });
}

/** Serves the feed on `app`; returns the number of subscribers now, and the unsubscribe. */
export function serveTemplateSockets(
  app: UwsApp,
  opts: TemplateSocketsOptions,
): { subscribers: () => number; close: () => void } {
  const max = opts.maxSubscribers ?? DEFAULT_MAX_SUBSCRIBERS;
  const text = notificationText();
  let open = 0;
  let unsubscribe: (() => void) | null = null;
  const publish = (p: PublishedTemplate): void => {
    if (app.numSubscribers(TOPIC) > 0) app.publish(TOPIC, text(p));
  };
  const stopFeed = (): void => {
    unsubscribe?.();
    unsubscribe = null;
  };
  app.ws<Subscriber>(TEMPLATE_WS_PATH, {
    compression: 0,
    maxPayloadLength: MAX_INCOMING,
    maxBackpressure: MAX_BACKPRESSURE,
    closeOnBackpressureLimit: 1,
    idleTimeout: IDLE_SECS,
    sendPingsAutomatically: true,
    upgrade: (res, req, context) => {
      const decided = opts.authorize(req);
      if ('response' in decided) return refuse(res, decided.response);
      if (open >= max) return refuse(res, busyResponse());
      res.upgrade<Subscriber>(
        { closed: false },
        req.getHeader('sec-websocket-key'),
        req.getHeader('sec-websocket-protocol'),
        req.getHeader('sec-websocket-extensions'),
        context,
      );
    },
    open: (ws) => {
      open++;
      // The feed builds templates ahead only while someone listens.
      unsubscribe ??= opts.feed.subscribe(publish);
      const sub = ws.getUserData();
      // Subscribed only once the current template is sent: nothing can come before it.
      opts.feed.latest().then(
        () => {
          const last = opts.feed.last;
          if (sub.closed || last === null) return;
          ws.cork(() => {
            ws.send(text(last));
            ws.subscribe(TOPIC);
          });
        },
        () => {
          if (!sub.closed) ws.end(1011, 'no template');
        },
      );
    },
    message: () => {},
    close: (ws) => {
      open--;
      ws.getUserData().closed = true;
      if (open === 0) stopFeed();
    },
  });
  return { subscribers: () => open, close: stopFeed };
}
