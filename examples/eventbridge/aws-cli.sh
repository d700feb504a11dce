#!/usr/bin/env bash
# The AWS CLI against the scheduler's EventBridge Scheduler API (README "Use it from the AWS CLI and SDKs").
# Needs AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY of an access key pair (Account or org admin page).
set -euo pipefail
BASE="${BASE:-http://127.0.0.1:${PORT:-3000}}"
export AWS_DEFAULT_REGION="${AWS_DEFAULT_REGION:-us-east-1}"
GROUP="${GROUP:-reports}"
sched() { aws scheduler "$@" --endpoint-url "$BASE"; }

# Your org's account id is in every ARN (it is also shown on the org's admin page).
ACCOUNT=$(sched get-schedule-group --name default --query Arn --output text | cut -d: -f5)

sched create-schedule-group --name "$GROUP" --tags Key=team,Value=ops
sched create-schedule --group-name "$GROUP" --name nightly-report \
  --schedule-expression 'cron(0 2 * * ? *)' --schedule-expression-timezone Europe/Berlin \
  --flexible-time-window Mode=OFF \
  --target "{\"Arn\": \"arn:aws:scheduler:$AWS_DEFAULT_REGION:$ACCOUNT:workflow/acme-corp/procedures/default/nightly-batch/daily-report\",
             \"RoleArn\": \"arn:aws:iam::$ACCOUNT:role/scheduler\", \"Input\": \"{\\\"hours\\\": 24}\"}"
sched get-schedule --group-name "$GROUP" --name nightly-report
sched list-schedules --group-name "$GROUP" --query 'Schedules[].[Name,State]' --output text
sched list-tags-for-resource --resource-arn "arn:aws:scheduler:$AWS_DEFAULT_REGION:$ACCOUNT:schedule-group/$GROUP"
sched delete-schedule --group-name "$GROUP" --name nightly-report
sched delete-schedule-group --name "$GROUP"
