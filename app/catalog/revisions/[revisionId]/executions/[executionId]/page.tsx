import type { Metadata } from 'next';
import Link from 'next/link';
import { orNotFound, webContext } from '@/app/lib/server';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { CreatorLabel } from '@/components/catalog/creator-label';
import { FiredBy } from '@/components/catalog/fired-by';
import { LocalTime } from '@/components/local-time';
import { Property } from '@/components/property';
import { describeAuthEntities } from '@/lib/auth';
import { executionOrigins, findDefinitionByRef, getCatalogRevision, getSession, getWorkflowExecution } from '@/lib/workflows';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Workflow execution' };

interface Props {
  params: Promise<{ revisionId: string; executionId: string }>;
}

const none = <span className="muted">—</span>;

/**
 * One workflow execution (SPEC §3.2): where it ran, what it was given, who created it, and the
 * schedule and run that fired it. A schedule's Executions history links here.
 */
export default async function ExecutionPage({ params }: Props) {
  const { revisionId, executionId } = await params;
  const { db, actor } = await webContext();
  const revision = await orNotFound(getCatalogRevision(db, { actor, revisionId }));
  const execution = await orNotFound(getWorkflowExecution(db, { actor, revisionId: revision.id, executionId }));
  // One session and one definition to name: point lookups, not the revision's lists.
  const [session, definition, origins, [creator]] = await Promise.all([
    getSession(db, { actor, revisionId: revision.id, session: execution.session_id }),
    findDefinitionByRef(db, { revisionId: revision.id, definition: execution.definition_id }),
    executionOrigins(db, { actor, scheduleIds: execution.schedule_id ? [execution.schedule_id] : [] }),
    describeAuthEntities(db, [execution.created_by]),
  ]);
  const origin = execution.schedule_id ? origins.get(execution.schedule_id) : undefined;
  const blobLabel = revision.blob.alias ?? revision.blob.name;
  const revisionHref = `/catalog/revisions/${revision.id}`;

  return (
    <div className="page">
      <Breadcrumbs
        items={[
          { label: 'Catalog', href: '/catalog' },
          { label: blobLabel, href: `/catalog/${revision.blob.id}` },
          { label: `Revision ${revision.id.slice(0, 8)}`, href: revisionHref },
          { label: 'Execution' },
        ]}
      />
      <div className="page-header">
        <div>
          <h1 className="break">Execution {execution.id}</h1>
          <p className="page-intro">
            Of workflow blob <Link href={`/catalog/${revision.blob.id}`}>{blobLabel}</Link>, revision{' '}
            <Link href={revisionHref} className="mono small">
              {revision.id}
            </Link>
          </p>
        </div>
      </div>

      <section className="container" aria-labelledby="execution-title">
        <h2 id="execution-title" className="container-title">
          Execution details
        </h2>
        <dl className="properties">
          <Property term="Created">
            <LocalTime instant={execution.created_at} />
          </Property>
          <Property term="Session">
            <span className="mono">{session?.alias ?? execution.session_id}</span>
            {session?.alias ? <div className="mono muted small">{execution.session_id}</div> : null}
          </Property>
          <Property term="Definition">
            <span className="mono">{definition?.alias ?? definition?.name ?? execution.definition_id}</span>
            <div className="mono muted small">{execution.definition_id}</div>
          </Property>
          <Property term="Description">{execution.description ?? none}</Property>
          <Property term="Created by">
            <CreatorLabel creator={creator} />
          </Property>
          <Property term="Fired by">
            <FiredBy execution={execution} origin={origin} prefix="schedule " none={<span className="muted">Not a schedule: created through the API</span>} />
          </Property>
        </dl>
      </section>

      <section className="container section-gap" aria-labelledby="input-title">
        <h2 id="input-title" className="container-title">
          Input data
        </h2>
        <pre className="code-block" tabIndex={0} aria-label="Input data as JSON">
          {JSON.stringify(execution.input_data, null, 2)}
        </pre>
      </section>
    </div>
  );
}
