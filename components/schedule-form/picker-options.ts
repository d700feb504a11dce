/**
 * What the target pickers offer as the operator types (SPEC §10): the catalog the operator can read
 * (`TargetOptions`), narrowed by what is typed so far: blob → its revisions → their sessions and
 * definitions. Free entry stays allowed; saving decides (SPEC §6.3).
 */
import type { TargetOptions } from '@/lib/schedules/contract';
import type { ScheduleFormValues } from './values';

/** One datalist option: the value typed into the input, and what it is. */
export interface PickerOption {
  value: string;
  label: string;
}

/** The options of each picker of the target fields. */
export interface PickerOptions {
  orgs: PickerOption[];
  targetBlobs: PickerOption[];
  targetRevisions: PickerOption[];
  sessions: PickerOption[];
  workflowBlobs: PickerOption[];
  workflowRevisions: PickerOption[];
  definitions: PickerOption[];
}

type Blob = TargetOptions['blobs'][number];

/**
 * The datalist options that fit what is typed so far. Target blobs are the writable ones; a
 * following target (revision `default`) offers sessions by alias only, a pinned one by id too; the
 * same for definitions, whose revision is the workflow blob's when one is named, else the target's.
 */
export function pickerOptions(
  options: TargetOptions,
  target: ScheduleFormValues['invocation_target']['target'],
  workflow: ScheduleFormValues['invocation_target']['workflow'],
): PickerOptions {
  const norm = (s: string | undefined) => (s ?? '').trim().toLowerCase();
  const inOrg = (b: Blob, org: string) => !org || b.orgAlias === org || b.orgId === org;
  const findBlob = (org: string, ref: string) => (ref ? options.blobs.find((b) => (b.id === ref || (b.alias === ref && inOrg(b, org))) && (b.id === ref ? true : inOrg(b, org))) : undefined);
  const revisionOf = (b: Blob | undefined, rev: string) => (!b ? null : !rev || rev === 'default' ? b.defaultRevisionId : (b.revisions.find((r) => r.id === rev)?.id ?? null));
  const blobOption = (b: Blob): PickerOption => ({ value: b.alias ?? b.id, label: `${b.name} (${b.orgAlias ?? b.orgId})` });
  const revisionOptions = (b: Blob | undefined, draftsOnly: boolean): PickerOption[] => [
    { value: 'default', label: 'Follow the default revision' },
    ...(b?.revisions ?? []).filter((r) => !draftsOnly || r.state === 'draft').map((r) => ({ value: r.id, label: `${r.state}${r.isDefault ? ', default' : ''}` })),
  ];

  const tOrg = norm(target.org);
  const tBlob = findBlob(tOrg, norm(target.blob));
  const tRevision = norm(target.revision);
  const tRevisionId = revisionOf(tBlob, tRevision);
  const following = tRevision === 'default';
  const sessions = options.sessions
    .filter((s) => s.revisionId === tRevisionId)
    .flatMap((s) => {
      const label = `${s.state}${s.alias ? '' : ' (no alias)'}`;
      const out: PickerOption[] = [];
      if (s.alias) out.push({ value: s.alias, label });
      if (!following) out.push({ value: s.id, label: `${s.alias ?? 'session'} · ${s.state}` });
      return out;
    });

  const wOrg = norm(workflow.org);
  const wBlobRef = norm(workflow.blob);
  const wBlob = wBlobRef ? findBlob(wOrg, wBlobRef) : undefined;
  const wRevision = norm(workflow.revision);
  const definitionRevisionId = wBlobRef ? revisionOf(wBlob, wRevision) : tRevisionId;
  const definitionFollows = wBlobRef ? !wRevision || wRevision === 'default' : following;
  const definitions = options.definitions
    .filter((d) => d.revisionId === definitionRevisionId)
    .flatMap((d) => {
      const out: PickerOption[] = [];
      if (d.alias) out.push({ value: d.alias, label: d.name });
      if (!definitionFollows) out.push({ value: d.id, label: `${d.name} (id)` });
      return out;
    });

  return {
    orgs: options.orgs.map((o) => ({ value: o.alias ?? o.id, label: o.name })),
    targetBlobs: options.blobs.filter((b) => b.role !== 'read' && inOrg(b, tOrg)).map(blobOption),
    targetRevisions: revisionOptions(tBlob, true),
    sessions,
    workflowBlobs: options.blobs.filter((b) => inOrg(b, wOrg)).map(blobOption),
    workflowRevisions: revisionOptions(wBlob, false),
    definitions,
  };
}
