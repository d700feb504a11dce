export { loadConfig, resetConfigCache, decodeKey, type AppConfig, type Limits } from './env';
