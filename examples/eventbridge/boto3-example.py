# boto3 against the scheduler's EventBridge Scheduler API (README "Use it from the AWS CLI and SDKs").
# Credentials: AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY of an access key pair.
import os

import boto3

base = os.environ.get("BASE", f"http://127.0.0.1:{os.environ.get('PORT', '3000')}")
name = os.environ.get("NAME", "hourly-triage")
scheduler = boto3.client("scheduler", endpoint_url=base, region_name="us-east-1")

account = scheduler.get_schedule_group(Name="default")["Arn"].split(":")[4]
scheduler.create_schedule(
    Name=name,
    ScheduleExpression="rate(1 hour)",
    FlexibleTimeWindow={"Mode": "OFF"},
    Target={
        "Arn": f"arn:aws:scheduler:us-east-1:{account}:workflow/acme-corp/procedures/default/nightly-batch/triage",
        "RoleArn": f"arn:aws:iam::{account}:role/scheduler",
    },
)
print(scheduler.get_schedule(Name=name)["ScheduleExpression"])
for page in scheduler.get_paginator("list_schedules").paginate(NamePrefix=name):
    for s in page["Schedules"]:
        print(s["GroupName"], s["Name"], s["State"])
scheduler.delete_schedule(Name=name)
