#!/bin/sh
# A job run by a webhook (examples/checkin/receiver.mjs) that tells the scheduler how it ended
# (SPEC §16.1). CHECKIN_URL is the `scheduler-checkin-url` header of the webhook that started it.
#
#   curl "$CHECKIN_URL/start"   → the run is `running`; a `completion` deadline counts from now
#   curl "$CHECKIN_URL/$?"      → exit code 0: `succeeded`; 1–255: `failed` (the code is kept)
#
# A body (≤ 10 KiB) becomes the run's message: its first 1 KiB shows in the history.
set -u
curl -fsS -m 10 "$CHECKIN_URL/start" > /dev/null

# The work. Replace with yours; its exit code is what the scheduler records.
echo "exporting the nightly report…"
sleep "${JOB_SECONDS:-2}"
test "${JOB_FAIL:-0}" = 0
status=$?

curl -fsS -m 10 --data-binary "job exited with $status at $(date -u +%FT%TZ)" "$CHECKIN_URL/$status" > /dev/null
exit "$status"
