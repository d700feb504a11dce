export { loadConfig, resetConfigCache, type AppConfig, type Limits, type HttpAllowList } from './env';
