import type { Metadata } from 'next';
import Link from 'next/link';
import { DataTable, RowActions } from '@/app/_components/data-table';
import { orNotFound, webContext } from '@/app/lib/server';
import { param, type SearchParams } from '@/app/lib/search-params';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { DefaultBadge, RevisionStateBadge, SessionStateBadge } from '@/components/catalog/catalog-badges';
import { CatalogForm } from '@/components/catalog/catalog-form';
import { CreatorLabel } from '@/components/catalog/creator-label';
import { FiredBy } from '@/components/catalog/fired-by';
import { LocalTime } from '@/components/local-time';
import { ScheduleImpactList } from '@/app/_components/schedule-impact';
import { describeAuthEntities } from '@/lib/auth';
import { NO_IMPACT, sessionDeleteImpacts, type ScheduleImpact } from '@/lib/schedules';
import { isDomainError } from '@/lib/errors';
import { executionOrigins, getCatalogRevision, listDefinitions, listSessions, listWorkflowExecutions, type ExecutionJson } from '@/lib/workflows';
import {
  closeSessionAction,
  createDefinitionAction,
  createSessionAction,
  deleteSessionAction,
  renameSessionAction,
  reopenSessionAction,
} from '../../actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Workflow revision' };

const SESSION_COLUMNS = [{ label: 'Session' }, { label: 'State' }, { label: 'Created' }];
const DEFINITION_COLUMNS = [{ label: 'Alias' }, { label: 'Name' }, { label: 'Id' }];
const EXECUTION_COLUMNS = [{ label: 'Created' }, { label: 'Session' }, { label: 'Definition' }, { label: 'Description' }, { label: 'Created by' }, { label: 'Schedule / run' }];

/** Executions shown per page on this page. */
const EXECUTIONS_PAGE = 20;

interface Props {
  params: Promise<{ revisionId: string }>;
  searchParams: Promise<SearchParams>;
}

/** A workflow revision: its sessions, its definitions and its executions, newest first (SPEC §1, §3.2). */
export default async function CatalogRevisionPage({ params, searchParams }: Props) {
  const [{ revisionId }, sp] = await Promise.all([params, searchParams]);
  const { db, actor } = await webContext();
  const revision = await orNotFound(getCatalogRevision(db, { actor, revisionId }));
  const id = revision.id;
  const cursor = param(sp, 'executions') || undefined;
  const [{ sessions }, { definitions }] = await Promise.all([
    listSessions(db, { actor, revisionId: id, pageSize: 500 }),
    listDefinitions(db, { actor, revisionId: id, pageSize: 500 }),
  ]);
  let executions: ExecutionJson[] = [];
  let nextCursor: string | null = null;
  let executionsProblem: string | null = null;
  try {
    const page = await listWorkflowExecutions(db, { actor, revisionId: id, startExecutionId: cursor, pageSize: EXECUTIONS_PAGE });
    executions = page.executions;
    nextCursor = page.lastExecutionId;
  } catch (e) {
    // A cursor whose execution was deleted with its session: say so and offer the first page.
    if (!(isDomainError(e) && e.code === 'invalid_request_body')) throw e;
    executionsProblem = 'That page of executions no longer exists.';
  }
  const [origins, creators] = await Promise.all([
    executionOrigins(db, { actor, scheduleIds: executions.flatMap((e) => (e.schedule_id ? [e.schedule_id] : [])) }),
    describeAuthEntities(db, executions.map((e) => e.created_by)),
  ]);
  const sessionLabel = new Map(sessions.map((s) => [s.id, s.alias ?? s.id]));
  const definitionLabel = new Map(definitions.map((d) => [d.id, d.alias ?? d.name]));

  const blobLabel = revision.blob.alias ?? revision.blob.name;
  const writable = revision.role !== 'read' && revision.state === 'draft';
  // Which schedules aim at each session, named in its Delete confirmation.
  const deleteImpacts = writable ? await sessionDeleteImpacts(db, { actor, revisionId: id }) : new Map<string, ScheduleImpact>();
  const selfHref = `/catalog/revisions/${id}`;

  return (
    <div className="page">
      <Breadcrumbs items={[{ label: 'Catalog', href: '/catalog' }, { label: blobLabel, href: `/catalog/${revision.blob.id}` }, { label: id }]} />
      <div className="page-header">
        <div>
          <h1 className="title-with-badges">
            <span className="break">Revision {id}</span>
            <RevisionStateBadge state={revision.state} />
            {revision.isDefault ? <DefaultBadge /> : null}
          </h1>
          <p className="page-intro">
            Of workflow blob <Link href={`/catalog/${revision.blob.id}`}>{blobLabel}</Link> in {revision.blob.org.name} · created <LocalTime instant={revision.createdAt} />
            {revision.state !== 'draft' ? ' · committed revisions are read only' : ''}
          </p>
        </div>
      </div>

      <section className="container container-flush" aria-labelledby="sessions-title">
        <h2 id="sessions-title" className="container-title container-title-padded">
          Sessions <span className="count">({sessions.length})</span>
        </h2>
        {sessions.length === 0 ? <p className="empty-inline muted container-title-padded">No sessions.</p> : null}
        <DataTable label="Sessions" columns={writable ? [...SESSION_COLUMNS, { label: 'Actions' }] : SESSION_COLUMNS}>
          {sessions.map((s) => {
            const label = s.alias ?? s.id;
            return (
              <tr key={s.id}>
                <td>
                  <strong className="mono">{label}</strong>
                  {s.alias ? <div className="mono muted small">{s.id}</div> : null}
                </td>
                <td>
                  <SessionStateBadge state={s.state} />
                </td>
                <td className="small nowrap">
                  <LocalTime instant={s.created_at} />
                </td>
                {writable ? (
                  <td>
                    <RowActions>
                      {s.state === 'open' ? (
                        <CatalogForm action={closeSessionAction.bind(null, id, s.id)} submitLabel="Close" label={`Close ${label}`} />
                      ) : (
                        <CatalogForm action={reopenSessionAction.bind(null, id, s.id)} submitLabel="Reopen" label={`Reopen ${label}`} />
                      )}
                      <CatalogForm
                        action={deleteSessionAction.bind(null, id, s.id)}
                        submitLabel="Delete"
                        label={`Delete ${label}`}
                        variant="danger"
                        confirm={{
                          title: `Delete session ${label}?`,
                          body: (
                            <>
                              <p>Its executions are deleted with it. This cannot be undone.</p>
                              <ScheduleImpactList impact={deleteImpacts.get(s.id) ?? NO_IMPACT} change="delete_session" none="No schedule aims at this session." />
                            </>
                          ),
                        }}
                      />
                      <CatalogForm action={renameSessionAction.bind(null, id, s.id)} submitLabel="Rename" label={`Rename ${label}`}>
                        <label className="visually-hidden" htmlFor={`rename-${s.id}`}>
                          New alias of {label}
                        </label>
                        <input id={`rename-${s.id}`} name="alias" className="mono" defaultValue={s.alias ?? ''} size={16} />
                      </CatalogForm>
                    </RowActions>
                  </td>
                ) : null}
              </tr>
            );
          })}
        </DataTable>
        {writable ? (
          <div className="container-title-padded">
            <h3 className="subsection-title">New session</h3>
            <CatalogForm action={createSessionAction.bind(null, id)} submitLabel="Create session" label="Create session" variant="primary" resetOnSuccess>
              <div className="field">
                <label htmlFor="session-alias">
                  Alias <span className="optional">(optional)</span>
                </label>
                <input id="session-alias" name="alias" className="mono" />
              </div>
            </CatalogForm>
          </div>
        ) : null}
      </section>

      <section className="container container-flush section-gap" aria-labelledby="definitions-title">
        <h2 id="definitions-title" className="container-title container-title-padded">
          Definitions <span className="count">({definitions.length})</span>
        </h2>
        {definitions.length === 0 ? <p className="empty-inline muted container-title-padded">No definitions.</p> : null}
        <DataTable label="Definitions" columns={DEFINITION_COLUMNS}>
          {definitions.map((d) => (
            <tr key={d.id}>
              <td className="mono">{d.alias ?? <span className="muted">—</span>}</td>
              <td>{d.name}</td>
              <td className="mono small muted">{d.id}</td>
            </tr>
          ))}
        </DataTable>
        {writable ? (
          <div className="container-title-padded">
            <h3 className="subsection-title">New definition</h3>
            <CatalogForm action={createDefinitionAction.bind(null, id)} submitLabel="Create definition" label="Create definition" variant="primary" resetOnSuccess>
              <div className="field">
                <label htmlFor="definition-alias">
                  Alias <span className="optional">(optional)</span>
                </label>
                <input id="definition-alias" name="alias" className="mono" />
              </div>
              <div className="field">
                <label htmlFor="definition-name">Name</label>
                <input id="definition-name" name="name" required />
              </div>
            </CatalogForm>
          </div>
        ) : null}
      </section>

      <section className="container container-flush section-gap" aria-labelledby="executions-title">
        <h2 id="executions-title" className="container-title container-title-padded">
          Executions
        </h2>
        {executionsProblem ? (
          <p className="notice notice-error container-title-padded">
            {executionsProblem} <Link href={selfHref}>First page</Link>
          </p>
        ) : null}
        {executions.length === 0 && !executionsProblem ? <p className="empty-inline muted container-title-padded">No executions.</p> : null}
        <DataTable label="Executions" columns={EXECUTION_COLUMNS}>
          {executions.map((e, i) => {
            const origin = e.schedule_id ? origins.get(e.schedule_id) : undefined;
            const creator = creators[i];
            return (
              <tr key={e.id}>
                <td className="small nowrap">
                  <LocalTime instant={e.created_at} />
                  <div className="mono small">
                    <Link href={`/catalog/revisions/${id}/executions/${e.id}`} aria-label={`Execution ${e.id}`}>
                      {e.id}
                    </Link>
                  </div>
                </td>
                <td className="mono small">{sessionLabel.get(e.session_id) ?? e.session_id}</td>
                <td className="mono small">{definitionLabel.get(e.definition_id) ?? e.definition_id}</td>
                <td>{e.description ?? <span className="muted">—</span>}</td>
                <td className="small">
                  <CreatorLabel creator={creator} />
                </td>
                <td className="small">
                  <FiredBy execution={e} origin={origin} none={<span className="muted">—</span>} />
                </td>
              </tr>
            );
          })}
        </DataTable>
        <nav className="pager container-title-padded" aria-label="Executions pages">
          {cursor ? <Link href={selfHref}>Newest</Link> : null}
          {nextCursor ? <Link href={`${selfHref}?executions=${encodeURIComponent(nextCursor)}`}>Older executions</Link> : null}
        </nav>
      </section>
    </div>
  );
}
