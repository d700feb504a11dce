
/**
 * Who created an execution, in human terms (from `describeAuthEntities`): a user or org by name with
 * its kind, or "deleted user|org <id>"; the raw `created_by` is in the title.
 */
export function CreatorLabel({ creator }: { creator: { type: 'user' | 'org'; id: string; label: string; detail: string | null; exists: boolean } }) {
  return (
    <span title={`created_by: {type: "${creator.type}", id: "${creator.id}"}`}>
      {creator.exists ? (
        <>
          {creator.label} <span className="muted">({creator.type}{creator.detail ? ` · ${creator.detail}` : ''})</span>
        </>
      ) : (
        <>
          deleted {creator.type} <span className="mono muted">{creator.id}</span>
        </>
      )}
    </span>
  );
}
