/**
 * Parse a command body with its one strict zod schema (STYLE §2.3). The first issue becomes
 * `400 invalid_request_body` with the dotted field path (`input_data.0.alias`); an unknown key's path
 * names the key itself (`target.revision`).
 */
import type { z } from 'zod';
import { DomainError } from '../errors';

export function parseParams<S extends z.ZodType>(schema: S, params: unknown): z.output<S> {
  const parsed = schema.safeParse(params);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = [...issue.path];
  if (issue.code === 'unrecognized_keys' && issue.keys.length > 0) path.push(issue.keys[0]);
  const dotted = path.map(String).join('.');
  const message = issue.code === 'unrecognized_keys' ? `unknown field "${dotted}"` : `${dotted || 'body'}: ${issue.message}`;
  throw new DomainError('invalid_request_body', message, dotted ? { path: dotted } : {});
}
