/**
 * The schedule page's Target section for a webhook (SPEC §13.1) or an AWS target (SPEC §13.2): the
 * headline in its own words (`displayTarget`), then every field as saved, and what each fire sends
 * (the body or input as given, or the default event of SPEC §13.3).
 */
import { HTTP_TIMEOUT_SECONDS, isOtherServiceArn, type AwsInvocationTarget, type EcsParameters, type HttpInvocationTarget } from '@/lib/schedules/contract';
import { awsTargetLabel, webhookLabel } from './display-target';
import { Property } from './property';

const none = <span className="muted">None</span>;
const DEFAULT_EVENT = 'The default event (an EventBridge Scheduler event naming this schedule and the occurrence)';

export function WebhookTargetDetails({ target }: { target: HttpInvocationTarget }) {
  const headers = Object.entries(target.headers ?? {});
  return (
    <>
      <p className="target-headline" data-testid="target-headline">
        {webhookLabel(target)}
      </p>
      <dl className="properties properties-single">
        <Property term="Type">Webhook (http)</Property>
        <Property term="URL">
          <span className="mono break">{target.url}</span>
        </Property>
        <Property term="Method">{target.method ?? 'POST'}</Property>
        <Property term="Timeout">
          {target.timeout_seconds ?? HTTP_TIMEOUT_SECONDS.default} s{target.timeout_seconds === undefined ? <span className="muted small"> (default)</span> : null}
        </Property>
        <Property term="Headers">
          {headers.length ? (
            <ul className="plain-list mono small">
              {headers.map(([name, value]) => (
                <li key={name}>
                  {name}: {value}
                </li>
              ))}
            </ul>
          ) : (
            none
          )}
        </Property>
      </dl>
      <p className="muted small">Each request is signed with the scheduler’s signing secret (Standard Webhooks headers webhook-id, webhook-timestamp, webhook-signature). Success is a 2xx answer within the timeout; redirects are not followed.</p>
      <h3 className="subsection-title">Body</h3>
      {target.body === undefined ? <p className="muted">{DEFAULT_EVENT}</p> : <pre className="code-block">{typeof target.body === 'string' ? target.body : JSON.stringify(target.body, null, 2)}</pre>}
    </>
  );
}

export function AwsTargetDetails({ target }: { target: AwsInvocationTarget }) {
  const other = isOtherServiceArn(target.arn);
  return (
    <>
      <p className="target-headline" data-testid="target-headline">
        {awsTargetLabel(target.arn)}
      </p>
      <dl className="properties properties-single">
        <Property term="Type">AWS service (aws)</Property>
        <Property term="Target ARN">
          <span className="mono break">{target.arn}</span>
        </Property>
        <Property term="Role ARN">{target.role_arn ? <span className="mono break">{target.role_arn}</span> : none}</Property>
        {target.sqs_parameters ? (
          <Property term="Message group id">
            <span className="mono">{target.sqs_parameters.message_group_id}</span>
          </Property>
        ) : null}
        {target.eventbridge_parameters ? (
          <>
            <Property term="Detail type">{target.eventbridge_parameters.detail_type}</Property>
            <Property term="Source">
              <span className="mono">{target.eventbridge_parameters.source}</span>
            </Property>
          </>
        ) : null}
        {target.ecs_parameters ? <EcsProperties ecs={target.ecs_parameters} /> : null}
      </dl>
      {other ? (
        <p className="muted small">Stored as sent through the EventBridge API. This service is not a delivered target: each fire is recorded as a failed attempt (unsupported_target).</p>
      ) : (
        <p className="muted small">Delivered with the AWS SDK and the worker’s own AWS configuration (credentials, region, endpoint).</p>
      )}
      <h3 className="subsection-title">Input</h3>
      {target.ecs_parameters ? <p className="muted">None: RunTask starts the task definition as registered</p> : target.input === undefined ? <p className="muted">{DEFAULT_EVENT}</p> : <pre className="code-block">{target.input}</pre>}
    </>
  );
}

/** An ECS target's RunTask parameters (SPEC §13.2), each field that is set. */
function EcsProperties({ ecs }: { ecs: EcsParameters }) {
  const vpc = ecs.network_configuration?.awsvpc_configuration;
  return (
    <>
      <Property term="Task definition">
        <span className="mono break">{ecs.task_definition_arn}</span>
        <div className="muted small">
          {ecs.task_count ?? 1} task{(ecs.task_count ?? 1) === 1 ? '' : 's'} a fire{ecs.launch_type ? `, ${ecs.launch_type}` : ''}
          {ecs.platform_version ? `, platform ${ecs.platform_version}` : ''}
          {ecs.group ? `, group ${ecs.group}` : ''}
        </div>
      </Property>
      {vpc ? (
        <Property term="Network (awsvpc)">
          <div className="mono small break">subnets {vpc.subnets.join(', ')}</div>
          {vpc.security_groups?.length ? <div className="mono small break">security groups {vpc.security_groups.join(', ')}</div> : null}
          <div className="muted small">public IP {vpc.assign_public_ip === 'ENABLED' ? 'assigned' : 'not assigned'}</div>
        </Property>
      ) : null}
    </>
  );
}
