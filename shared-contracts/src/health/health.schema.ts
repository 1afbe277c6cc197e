import { z } from 'zod';
import { CodeRunnerInfoSchema } from '../ai/capabilities.schema.js';

/** What a service answers at GET /health. */
export const ServiceHealthSchema = z.object({
  service: z.string(),
  status: z.enum(['healthy', 'unhealthy']),
  version: z.string(),
  uptime_s: z.number(),
  checks: z.record(z.string(), z.enum(['ok', 'failing'])).optional(),
  /** The ai-middleware's model provider (AI_PROVIDER) and model (null: builtin, no model). */
  ai: z.object({ provider: z.string(), model: z.string().nullable() }).optional(),
  /** The ai-middleware's live code-runner engine and its Python packages (issue 19). */
  code_runner: CodeRunnerInfoSchema.optional(),
});
export type ServiceHealth = z.infer<typeof ServiceHealthSchema>;

/** What the shell's monitor shows in About (spec 01 §3 Health status). */
export const HealthStatusSchema = z.object({
  service: z.string(),
  url: z.string(),
  status: z.enum(['healthy', 'unhealthy']),
  lastCheck: z.string(),
  responseTime: z.number(),
  /** The ai-middleware's code-runner engine and packages as its /health last said (issue 19: About shows them). */
  codeRunner: CodeRunnerInfoSchema.optional(),
});
export type HealthStatus = z.infer<typeof HealthStatusSchema>;
