#!/usr/bin/env node
// A webhook receiver that runs examples/checkin/job.sh for each delivery and answers at once; the job
// checks in on its own (SPEC §16.1). Verifies the Standard Webhooks signature when
// SCHEDULER_SIGNING_SECRET (the scheduler's `whsec_…`) is set.
//
//   PORT=4000 SCHEDULER_SIGNING_SECRET=whsec_… node examples/checkin/receiver.mjs
//
// Then create an http schedule to http://127.0.0.1:4000/ with `completion: {expect_within_seconds: 60}`
// (list 127.0.0.1 in SCHEDULER_HTTP_ALLOWED_HOSTS): its runs end `succeeded`, `failed` (JOB_FAIL=1)
// or `timed_out` (JOB_SECONDS=120).
import { spawn } from 'node:child_process';
import { Buffer } from 'node:buffer';
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';

const job = path.join(import.meta.dirname, 'job.sh');
const secret = process.env.SCHEDULER_SIGNING_SECRET;

/** Standard Webhooks: base64(HMAC-SHA256(secret, `${id}.${timestamp}.${body}`)) among `v1,…` signatures. */
function signed(headers, body) {
  if (!secret) return true;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${headers['webhook-id']}.${headers['webhook-timestamp']}.${body}`).digest();
  return String(headers['webhook-signature'] ?? '')
    .split(' ')
    .some((s) => {
      const given = Buffer.from(s.replace(/^v1,/, ''), 'base64');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}

http
  .createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const checkinUrl = req.headers['scheduler-checkin-url'];
      if (!signed(req.headers, body) || typeof checkinUrl !== 'string') {
        res.writeHead(401).end('not a signed scheduler webhook');
        return;
      }
      // Answer at once: the delivery succeeded; the job says later how the work ended.
      res.writeHead(202).end('started');
      const child = spawn('sh', [job], { stdio: 'inherit', env: { ...process.env, CHECKIN_URL: checkinUrl } });
      child.on('exit', (code) => console.log(`${req.headers['webhook-id']}: job exited ${code}`));
    });
  })
  .listen(Number(process.env.PORT ?? 4000), '127.0.0.1', () => console.log(`receiver on http://127.0.0.1:${process.env.PORT ?? 4000}/`));
