/**
 * A schedule's (or a run's) target in its own words (SPEC §6, §13), for the grid's Target column, the
 * run history and the schedule page: a workflow target in its parts (`org/blob @ revision / session`
 * and the definition), a webhook as "Webhook POST https://…", an AWS target as what its ARN names
 * ("SQS queue orders (eu-west-1)"). Universal and pure.
 */
import { HTTP_TIMEOUT_SECONDS, parseTargetArn, type AwsInvocationTarget, type AwsTargetService, type HttpInvocationTarget, type InvocationTarget, type TargetFields } from '@/lib/schedules/contract';

/** What the target cells show. `workflow`: the parts; `http` / `aws`: a headline and a detail line. */
export type ShownTarget =
  | { kind: 'workflow'; target: InvocationTarget['target']; workflow: InvocationTarget['workflow'] }
  | {
      kind: 'http' | 'aws';
      /** "Webhook POST https://example.com/hook", "SQS queue orders (eu-west-1)". */
      label: string;
      /** What each fire sends: "default event", "custom body · 10 s timeout", "group orders-1 · custom input". */
      detail: string;
      /** The full address (URL or ARN), for the title and copying. */
      address: string;
    };

/** An AWS service's resource in words, by the ARN's service (SPEC §13.2). */
const RESOURCE_WORDS: Record<AwsTargetService, string> = {
  sqs: 'SQS queue',
  sns: 'SNS topic',
  lambda: 'Lambda function',
  states: 'Step Functions state machine',
  events: 'EventBridge event bus',
  ecs: 'ECS cluster',
};

/** "Webhook POST https://example.com/hook" (SPEC §13.1; POST when no method is set). */
export function webhookLabel(t: Pick<HttpInvocationTarget, 'url' | 'method'>): string {
  return `Webhook ${t.method ?? 'POST'} ${t.url}`;
}

/**
 * "SQS queue orders (eu-west-1)", "SNS FIFO topic alerts.fifo (us-east-1)", "Lambda function resize:prod
 * (eu-central-1)"; an ARN of another service (stored through the EventBridge API, SPEC §14) as
 * "AWS kinesis target (not delivered)".
 */
export function awsTargetLabel(arn: string): string {
  const p = parseTargetArn(arn);
  if ('problem' in p) {
    const service = /^arn:[^:]*:([^:]+):/.exec(arn)?.[1];
    return `AWS ${service ?? 'service'} target (not delivered)`;
  }
  const words = RESOURCE_WORDS[p.service];
  const kind = p.fifo ? words.replace(/ (queue|topic)$/, ' FIFO $1') : words;
  return `${kind} ${p.name} (${p.region})`;
}

function webhookDetail(t: HttpInvocationTarget): string {
  const parts = [t.body === undefined ? 'default event' : 'custom body'];
  const headers = Object.keys(t.headers ?? {}).length;
  if (headers) parts.push(`${headers} header${headers === 1 ? '' : 's'}`);
  parts.push(`${t.timeout_seconds ?? HTTP_TIMEOUT_SECONDS.default} s timeout`);
  return parts.join(' · ');
}

function awsDetail(t: AwsInvocationTarget): string {
  const parts: string[] = [];
  if (t.sqs_parameters) parts.push(`group ${t.sqs_parameters.message_group_id}`);
  if (t.eventbridge_parameters) parts.push(`${t.eventbridge_parameters.source} · ${t.eventbridge_parameters.detail_type}`);
  if (t.ecs_parameters) parts.push(`task ${t.ecs_parameters.task_definition_arn.split('/').pop()}`);
  else parts.push(t.input === undefined ? 'default event' : 'custom input');
  return parts.join(' · ');
}

/** The target of a schedule or a run as its cells show it. */
export function displayTarget(t: TargetFields): ShownTarget {
  switch (t.invocation_target_type) {
    case 'workflow':
      return { kind: 'workflow', target: t.invocation_target.target, workflow: t.invocation_target.workflow };
    case 'http':
      return { kind: 'http', label: webhookLabel(t.invocation_target), detail: webhookDetail(t.invocation_target), address: t.invocation_target.url };
    case 'aws':
      return { kind: 'aws', label: awsTargetLabel(t.invocation_target.arn), detail: awsDetail(t.invocation_target), address: t.invocation_target.arn };
    default:
      return t satisfies never;
  }
}
