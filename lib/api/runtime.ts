/**
 * The web process's edge: the configuration parsed once (`loadConfig()`) and the database client it
 * names, handed to the domain as arguments. This is the only module of `lib/api` that imports lib/db
 * (to connect, nothing else: no query, no transaction) and, with it, the only place the web app and
 * the API get their client and limits; `app/` reaches them through here (docs/architecture.md).
 */
import { loadConfig, serverSecretKey, type AppConfig, type HttpAllowList, type Limits } from '../config';
import { getDb, type Db } from '../db';
import { checkinKey, checkinUrls, createDeliveryDeps, schedulerEngine, type DeliveryDeps, type Engine } from '../schedules';
import { EVENTBRIDGE_FIRE_FACTS } from './eventbridge/fire-facts';

export interface Runtime {
  /** The process-wide client for DATABASE_URL (opened on first use). */
  db: Db;
  /** SPEC §9 limits, parsed from the environment once per process. */
  limits: Limits;
  /** The region of the schedulers the web app and the product API make (SCHEDULER_HOME_REGION, SPEC §14). */
  homeRegion: string;
  /** Webhook destinations allowed although private or loopback (SCHEDULER_HTTP_ALLOWED_HOSTS, SPEC §13.1): every save checks against it. */
  httpAllowList: HttpAllowList;
  /** The HTTP edge's settings: trusted proxies, the `/metrics` token (SCHEDULER_METRICS_TOKEN). */
  http: AppConfig['http'];
  /** The process's delivery pool and destination rules, for manual fires to after-commit targets (SPEC §13). */
  delivery: DeliveryDeps;
  /** The fire engine of manual fires (run now, replay): the product's, with this process's facades (SPEC §14) and check-in URLs (SPEC §16.1). */
  engine: Engine;
  /** The key check-in tokens are verified with (SPEC §16.1; `checkinKey` of the server key). */
  checkinKey: Buffer;
}

/** The product's fire engine with the facades this process serves (the EventBridge-compatible API) and its check-in URLs. */
let engine: Engine | null = null;
let keyOfCheckins: Buffer | null = null;

/** One delivery pool per process (SCHEDULER_DELIVERY_CONCURRENCY bounds all of its deliveries). */
let delivery: DeliveryDeps | null = null;

/** The client, limits and HTTP settings of this process. Throws when the environment is invalid (naming the variables). */
export function runtime(): Runtime {
  const config = loadConfig();
  delivery ??= createDeliveryDeps(config);
  engine ??= schedulerEngine.with({ ...EVENTBRIDGE_FIRE_FACTS, checkins: checkinUrls(config.http.publicUrl, serverSecretKey(config)) });
  keyOfCheckins ??= checkinKey(serverSecretKey(config));
  return { db: getDb(config), limits: config.limits, homeRegion: config.homeRegion, httpAllowList: config.delivery.httpAllowList, http: config.http, delivery, engine, checkinKey: keyOfCheckins };
}
