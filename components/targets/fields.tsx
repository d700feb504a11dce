'use client';
/**
 * THE REGISTRY of target types' form fields (client components; SPEC §10): each type's fields, named
 * once below, next to its form part and view in components/targets/index.ts. The schedule form's
 * Target section renders the chosen type's through it.
 */
import type { ReactNode } from 'react';
import type { InvocationTargetType } from '@/lib/schedules/contract';
import { AwsFields } from './aws-fields';
import { WebhookFields } from './http-fields';
import type { TargetFieldsProps } from './types';
import { WorkflowFields } from './workflow-fields';

/** Every target type's form fields, by type: the compiler refuses a type without them. */
const TARGET_FIELDS: { [T in InvocationTargetType]: (props: TargetFieldsProps) => ReactNode } = {
  workflow: WorkflowFields,
  http: WebhookFields,
  aws: AwsFields,
};

/** The fields of target type `type` (none for a type the form does not know). */
export function TargetTypeFields({ type, ...props }: TargetFieldsProps & { type: string }) {
  const Fields = Object.hasOwn(TARGET_FIELDS, type) ? TARGET_FIELDS[type as InvocationTargetType] : null;
  return Fields ? <Fields {...props} /> : null;
}
