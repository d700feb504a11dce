/**
 * The EventBridge facade's one door to the process: the database and the limits. (The product API's
 * routes take theirs the same way; when lib/api gains a single runtime module, this file becomes it.)
 */
import { loadConfig, type Limits } from '../../config';
import { getDb, type Db } from '../../db';

export function eventBridgeRuntime(): { db: Db; limits: Limits } {
  return { db: getDb(), limits: loadConfig().limits };
}
