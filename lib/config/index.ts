export { loadConfig, childEnv, workerClock, type AppConfig, type Limits } from './env';
