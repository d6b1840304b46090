// The two comparison servers of bench/gateway.ts, run as child processes (`node servers.js
// <kind> <arg> [secret]`); each prints `port <n>` when listening.
//  bare-uws:  uWS answering every request with fixed bytes (the transport's ceiling).
//  node-http: node:http in front of the same Dispatcher, with the chain service in-thread (the
//             same JSON-RPC and view work, fast path included, on Node's HTTP stack and without
//             actor threads).
import { createServer } from 'node:http';
import { ChainService } from '../../actors/chain/service.js';
import { Dispatcher } from '../../gateway/dispatch.js';
import { NO_PEERS, type Services } from '../../gateway/services.js';
import { loadUws } from '../../gateway/uws.js';

function bareUws(body: string): void {
  const uws = loadUws();
  uws
    .App()
    .any('/*', (res) => {
      res.writeStatus('200 OK').writeHeader('content-type', 'application/json').end(body);
    })
    .listen('127.0.0.1', 0, (socket) => {
      if (socket === false) throw new Error('cannot listen');
      process.stdout.write(`port ${uws.us_socket_local_port(socket as never)}\n`);
    });
}

function nodeHttp(dbRoot: string, secret: string): void {
  // This server only reads the head: a block reaching the verifier is a bench bug.
  const refuse = () => Promise.reject(new Error('the node:http bench server verifies no blocks'));
  const chain = new ChainService(
    { chainType: 'automated', dbRoot, foundationPath: null, powPolicy: null, archiveMode: false },
    { pow: refuse, pows: refuse, body: refuse },
  );
  // The head read once, as the node's gateway holds the chain actor's published head.
  const head = chain.getHead();
  const services: Services = {
    chain: async (kind) => (kind === 'getTip' ? chain.getTip() : chain.getHead()) as never,
    pool: refuse as never,
    peers: refuse as never,
    head: () => head,
    poolGeneration: () => 0,
    connectedPeers: () => NO_PEERS,
  };
  const dispatcher = new Dispatcher(
    services,
    { owner: secret, foreign: null },
    { userAgent: 'MW/mwnode bench', chainType: 'automated' },
  );
  const server = createServer((req, res) => {
    const [path = '', query = ''] = (req.url ?? '').split('?');
    const resolved = dispatcher.resolve(
      (req.method ?? '').toLowerCase(),
      path,
      req.headers.authorization,
    );
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks);
      // The same steps as the uWS gateway: a synchronous answer when there is one (the JSON-RPC
      // fast path, the reply cache), the full path otherwise.
      const response =
        'response' in resolved
          ? resolved.response
          : (dispatcher.answerNow(resolved.op, body) ??
            (await dispatcher.run(resolved.op, {
              method: req.method ?? '',
              path,
              query,
              authorization: req.headers.authorization,
              body,
            })));
      res.writeHead(response.status, {
        ...Object.fromEntries(response.headers),
        'content-length': Buffer.byteLength(response.body),
      });
      res.end(response.body);
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => {
    const addr = server.address();
    process.stdout.write(`port ${typeof addr === 'object' && addr ? addr.port : 0}\n`);
  });
}

const [kind, arg, secret] = process.argv.slice(2);
if (kind === 'bare-uws') bareUws(arg ?? '');
else if (kind === 'node-http') nodeHttp(arg ?? '', secret ?? '');
else throw new Error(`unknown server kind ${kind}`);
