/**
 * The target pickers offer what fits what is typed (SPEC §10): writable blobs as targets, a blob's
 * draft revisions, and sessions and definitions of the chosen revision: by alias only when the target
 * follows the default revision (SPEC §6.1), by alias and id when it is pinned.
 */
import { describe, expect, it } from 'vitest';
import type { TargetOptions } from '@/lib/schedules/contract';
import { pickerOptions } from '../picker-options';

const options: TargetOptions = {
  orgs: [
    { id: 'o1', alias: 'acme-corp', name: 'Acme' },
    { id: 'o2', alias: null, name: 'Other' },
  ],
  blobs: [
    {
      id: 'b1',
      alias: 'procedures',
      name: 'Procedures',
      orgId: 'o1',
      orgAlias: 'acme-corp',
      role: 'write',
      defaultRevisionId: 'r1',
      revisions: [
        { id: 'r1', state: 'draft', isDefault: true },
        { id: 'r2', state: 'committed', isDefault: false },
      ],
    },
    { id: 'b2', alias: null, name: 'Reports', orgId: 'o2', orgAlias: null, role: 'read', defaultRevisionId: 'r3', revisions: [{ id: 'r3', state: 'draft', isDefault: true }] },
  ],
  sessions: [
    { revisionId: 'r1', id: 's1', alias: 'nightly-batch', state: 'open' },
    { revisionId: 'r1', id: 's2', alias: null, state: 'closed' },
  ],
  definitions: [
    { revisionId: 'r1', id: 'd1', alias: 'triage', name: 'Triage' },
    { revisionId: 'r3', id: 'd3', alias: 'digest', name: 'Digest' },
  ],
};
const target = { org: 'acme-corp', blob: 'procedures', revision: 'default', session: '' };
const workflow = { org: '', blob: '', revision: '', definition: '' };

describe('pickerOptions', () => {
  it('following target: writable blobs, draft revisions, sessions and definitions by alias only', () => {
    expect(pickerOptions(options, target, workflow)).toEqual({
      orgs: [
        { value: 'acme-corp', label: 'Acme' },
        { value: 'o2', label: 'Other' },
      ],
      targetBlobs: [{ value: 'procedures', label: 'Procedures (acme-corp)' }],
      targetRevisions: [
        { value: 'default', label: 'Follow the default revision' },
        { value: 'r1', label: 'draft, default' },
      ],
      sessions: [{ value: 'nightly-batch', label: 'open' }],
      workflowBlobs: [
        { value: 'procedures', label: 'Procedures (acme-corp)' },
        { value: 'b2', label: 'Reports (o2)' },
      ],
      workflowRevisions: [{ value: 'default', label: 'Follow the default revision' }],
      definitions: [{ value: 'triage', label: 'Triage' }],
    });
  });

  it('pinned target: sessions and definitions by id too', () => {
    const r = pickerOptions(options, { ...target, revision: 'r1' }, workflow);
    expect(r.sessions).toEqual([
      { value: 'nightly-batch', label: 'open' },
      { value: 's1', label: 'nightly-batch · open' },
      { value: 's2', label: 'session · closed' },
    ]);
    expect(r.definitions).toEqual([
      { value: 'triage', label: 'Triage' },
      { value: 'd1', label: 'Triage (id)' },
    ]);
  });

  it('a named workflow blob takes the definitions from its revision', () => {
    const r = pickerOptions(options, target, { org: '', blob: 'b2', revision: '', definition: '' });
    expect(r.definitions).toEqual([{ value: 'digest', label: 'Digest' }]);
    expect(r.workflowRevisions).toEqual([
      { value: 'default', label: 'Follow the default revision' },
      { value: 'r3', label: 'draft, default' },
    ]);
  });
});
