export { loadConfig, resetConfigCache, type AppConfig, type Limits } from './env';
