import { registrarFromEnv } from '../_shared/registrar/registrar.ts';
import { createDomainPurchaseHandler, envDeps } from './handler.ts';

Deno.serve(createDomainPurchaseHandler(envDeps(() => registrarFromEnv())));
