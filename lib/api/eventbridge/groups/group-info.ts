/**
 * Schedule groups (SPEC §14): every scheduler blob of an org is a schedule group, named in AWS's
 * grammar and unique in the org; `default` is the org's default scheduler. Universal shapes.
 */

/** A group name or a schedule name on the EventBridge-compatible API: 1–64 of `0-9 a-z A-Z - _ .` (SPEC §14). */
export const EVENTBRIDGE_NAME = /^[0-9a-zA-Z\-_.]{1,64}$/;

/** The group every org has, created on first use and never deleted (SPEC §14). */
export const DEFAULT_GROUP = 'default';

/** Most schedule groups one org holds in one region (AWS's quota per account and Region, EVENTBRIDGE.md §6). */
export const GROUPS_PER_ORG = 500;

/**
 * The regions a group verb works in (SPEC §14 "Accounts and groups"): `region`, the one the request
 * was signed for (it sees only that region's groups); `homeRegion`, the one scheduler blobs made by
 * the web app or the product API belong to (SCHEDULER_HOME_REGION).
 */
export interface RegionScope {
  region: string;
  homeRegion: string;
}

/** A tag on a schedule group (AWS: key 1–128, value 1–256 characters). */
export type GroupTag = { key: string; value: string };

/** A schedule group as the domain returns it. */
export interface ScheduleGroupInfo {
  name: string;
  /** The AWS region the group belongs to (SPEC §14). */
  region: string;
  /** The scheduler blob and its one managed revision. */
  blobId: string;
  revisionId: string;
  orgId: string;
  createdAt: Date;
  /** Advances when the group's tags change. */
  updatedAt: Date;
  tags: GroupTag[];
}

export function toGroupInfo(row: {
  blobId: string;
  orgId: string;
  region: string;
  name: string;
  tags: unknown;
  createdAt: Date;
  updatedAt: Date;
  blob: { defaultRevisionId: string | null };
}): ScheduleGroupInfo {
  return {
    name: row.name,
    region: row.region,
    blobId: row.blobId,
    revisionId: row.blob.defaultRevisionId ?? '',
    orgId: row.orgId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    tags: Array.isArray(row.tags) ? (row.tags as GroupTag[]) : [],
  };
}

export const GROUP_SELECT = {
  blobId: true,
  orgId: true,
  region: true,
  name: true,
  tags: true,
  createdAt: true,
  updatedAt: true,
  blob: { select: { defaultRevisionId: true } },
} as const;
