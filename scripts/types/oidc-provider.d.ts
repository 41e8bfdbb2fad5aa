// oidc-provider ships no type declarations; this is the part scripts/oidc-provider.ts uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Grant {
    addOIDCScope(scope: string): void;
    save(): Promise<string>;
  }
  interface InteractionDetails {
    uid: string;
    grantId?: string;
    params: Record<string, unknown> & { client_id: string };
    prompt: { name: string; details: Record<string, unknown> };
  }
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    proxy: boolean;
    Grant: {
      new (init: { accountId: string; clientId: string }): Grant;
      find(id: string): Promise<Grant>;
    };
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }
}
