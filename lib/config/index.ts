export { loadConfig, childEnv, type AppConfig, type Limits } from './env';
