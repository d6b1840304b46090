// The chain actor: owns the chain database; runs on its own thread in the node process.
import { type ActorFactory, actorFromHandlers } from '../../runtime/index.js';
import type { ChainEvents, ChainInit, ChainProtocol } from './messages.js';
import { ChainService } from './service.js';

export const createChain: ActorFactory<ChainProtocol, ChainInit, ChainEvents> = (init, ctx) => {
  const chain = new ChainService(init);
  ctx.publish('head', chain.getHead());
  return actorFromHandlers<ChainProtocol>(
    {
      getTip: () => chain.getTip(),
      getHead: () => chain.getHead(),
    },
    () => chain.close(),
  );
};
