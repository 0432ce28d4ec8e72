// Graph ids are global: `/{id}` and `/{id}/{edge}` are answered by whatever object owns the id
// (a user, a Page, an app, a Threads container …). Each platform module defines its node types
// here; the host's generic routes resolve the id and call the node's operation. `me` is the
// token's subject. Unknown ids and unsupported operations get Graph's 100/33 error.
import type { Host, RouteContext } from '../core/router.ts';
import type { SandboxState } from '../core/state.ts';
import { unsupportedRequest } from './graph-error.ts';
import { graphInput, type GraphInput } from './params.ts';

export interface NodeCall<T> {
  ctx: RouteContext;
  input: GraphInput;
  node: T;
  id: string;
}

type Op<T> = (call: NodeCall<T>) => unknown;

export interface EdgeDef<T> {
  get?: Op<T>;
  post?: Op<T>;
  delete?: Op<T>;
}

export interface NodeDef<T> extends EdgeDef<T> {
  type: string;
  find(state: SandboxState, id: string): T | undefined;
  edges?: Record<string, EdgeDef<T>>;
}

type BoundOp = (ctx: RouteContext, input: GraphInput) => unknown;
interface BoundNode {
  type: string;
  op(method: string, edge: string | null): BoundOp | undefined;
}
export type NodeResolver = (state: SandboxState, id: string) => BoundNode | null;

export function defineNode<T>(def: NodeDef<T>): NodeResolver {
  return (state, id) => {
    const node = def.find(state, id);
    if (node === undefined) return null;
    return {
      type: def.type,
      op(method, edge) {
        const ops: EdgeDef<T> | undefined = edge === null ? def : def.edges?.[edge];
        const op = method === 'GET' || method === 'HEAD' ? ops?.get : method === 'POST' ? ops?.post : method === 'DELETE' ? ops?.delete : undefined;
        return op ? (ctx, input) => op({ ctx, input, node, id }) : undefined;
      },
    };
  };
}

export interface GraphNodeOptions {
  /** The id `me` stands for, from the request's token (throws the token's error). */
  me(ctx: RouteContext, input: GraphInput): string;
}

export class GraphNodes {
  readonly #resolvers: NodeResolver[] = [];

  add(...resolvers: NodeResolver[]): this {
    this.#resolvers.push(...resolvers);
    return this;
  }

  /** Registers `/{id}` and `/{id}/{edge}` for GET, POST and DELETE on the host (after its static routes). */
  mount(host: Host, options: GraphNodeOptions): void {
    const handle = (edge: boolean) => (ctx: RouteContext) => {
      const input = graphInput(ctx);
      const raw = ctx.params.id ?? '';
      const id = raw === 'me' ? options.me(ctx, input) : raw;
      const op = this.#operation(ctx.state, id, ctx.method, edge ? (ctx.params.edge ?? '') : null);
      if (!op) throw unsupportedRequest(ctx.method, edge ? `${raw}/${ctx.params.edge ?? ''}` : raw);
      return op(ctx, input);
    };
    for (const method of ['GET', 'POST', 'DELETE']) {
      host.add(method, '/:id', handle(false));
      host.add(method, '/:id/:edge', handle(true));
    }
  }

  /**
   * The first resolver that knows the id AND offers the operation: a module may add edges to
   * another module's node type (the ads module adds `/{user-id}/adaccounts` to users).
   */
  #operation(state: SandboxState, id: string, method: string, edge: string | null): BoundOp | undefined {
    for (const resolver of this.#resolvers) {
      const op = resolver(state, id)?.op(method, edge);
      if (op) return op;
    }
    return undefined;
  }

  resolve(state: SandboxState, id: string): BoundNode | null {
    for (const resolver of this.#resolvers) {
      const node = resolver(state, id);
      if (node) return node;
    }
    return null;
  }
}
