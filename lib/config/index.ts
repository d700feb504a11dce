export { loadConfig, loadConfigOrExit, MIN_PASSWORD_LENGTH, MAX_PASSWORD_LENGTH, DEFAULT_POSTGRES_TIMEOUTS, postgresUrl, ConfigError, childEnv, workerClock, decodeKey, type AppConfig, type Limits, type HttpAllowList } from './env';
export { serverSecretKey, resetServerSecretKey } from './server-key';
export { arnPartition, DEFAULT_HOME_REGION, isAwsRegion, partitionOf } from './regions';
