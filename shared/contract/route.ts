import type { z } from 'zod';

type Json = Record<string, unknown>;

/** One operation: its method and path, its words, its query's parser and each parameter's words, and the rest as OpenAPI has it. */
export interface Route {
  method: 'get' | 'post' | 'put' | 'delete' | 'options';
  path: string;
  operationId: string;
  summary: string;
  description: string;
  security?: Json[];
  query?: { schema: z.ZodType; describe: Record<string, string> };
  parameters?: Json[];
  requestBody?: Json;
  responses: Record<string, Json>;
}
