/** The answer of a catalog server action (the server-action contract, plus an optional confirmation). Types only. */
import type { ActionResult } from '@/components/action-result';

export type CatalogAnswer = ActionResult<{ message?: string }>;
