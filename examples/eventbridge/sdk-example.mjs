// The AWS SDK for JavaScript v3 against the scheduler's EventBridge Scheduler API
// (README "Use it from the AWS CLI and SDKs"). Credentials: AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY.
import { CreateScheduleCommand, DeleteScheduleCommand, GetScheduleCommand, GetScheduleGroupCommand, SchedulerClient } from '@aws-sdk/client-scheduler';

const base = process.env.BASE ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;
const name = process.env.NAME ?? 'weekday-triage';
const scheduler = new SchedulerClient({ endpoint: base, region: 'us-east-1' });

const { Arn } = await scheduler.send(new GetScheduleGroupCommand({ Name: 'default' }));
const account = Arn.split(':')[4];
await scheduler.send(
  new CreateScheduleCommand({
    Name: name,
    ScheduleExpression: 'cron(30 7 ? * MON-FRI *)',
    ScheduleExpressionTimezone: 'America/New_York',
    FlexibleTimeWindow: { Mode: 'OFF' },
    Target: {
      Arn: `arn:aws:scheduler:us-east-1:${account}:workflow/acme-corp/procedures/default/nightly-batch/triage`,
      RoleArn: `arn:aws:iam::${account}:role/scheduler`,
      Input: JSON.stringify([{ alias: 'ticket_window', value: { hours: 72 } }]),
    },
  }),
);
const schedule = await scheduler.send(new GetScheduleCommand({ Name: name }));
console.log(schedule.Arn, schedule.State, JSON.stringify(schedule.Target.RetryPolicy));
await scheduler.send(new DeleteScheduleCommand({ Name: name }));
