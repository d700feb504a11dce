export { type Actor, type AuthEntity, actorFromEntity } from './actor';
export { blobRole, orgRole, visibleOrgIds } from './access';
export { ROLES, type Role, roleAtLeast, maxRole, minRole, isRole } from './roles';
export { generateApiKey, hashSecret, actorFromApiKey, upsertKnownApiKey } from './keys';
export { getWebActor, DEMO_USER_EMAIL } from './web-actor';
