export { loadConfig, childEnv, workerClock, type AppConfig, type Limits, type HttpAllowList } from './env';
