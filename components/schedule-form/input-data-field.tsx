'use client';
/**
 * The input data passed to every execution a fire starts (SPEC §6 `input_data`): a JSON editor for
 * an array of `{alias, value}` objects. Text that is not JSON is refused at this field before any
 * request (`resolver.ts`); the contract checks the rest.
 */
import { useState } from 'react';
import { INPUT_DATA_MAX_BYTES } from '@/lib/workflows/contract';
import { ContextAttributeTools } from './context-attributes';
import type { FieldKit } from './field-kit';

const NAME = 'invocation_target.input_data';

export function InputDataField({ kit }: { kit: FieldKit }) {
  const { id, register, a11y, hint, fieldError } = kit;
  // Sized once, to the text the form starts with (4 to 12 rows); the operator resizes it from there.
  const [rows] = useState(() => Math.min(12, Math.max(4, (kit.getValues(NAME) ?? '').split('\n').length)));
  return (
    <div className="field">
      <label htmlFor={id(NAME)}>
        Input data (JSON) <span className="optional">optional</span>
      </label>
      <textarea {...register(NAME)} {...a11y(NAME, true)} rows={rows} className="mono" spellCheck={false} placeholder='[{"alias": "ticket_window", "value": {"hours": 24}}]' />
      {hint(NAME, <>An array of {'{"alias": …, "value": …}'}{` objects, at most ${INPUT_DATA_MAX_BYTES / 1024} KiB; passed to every execution.`}</>)}
      {fieldError(NAME)}
      <ContextAttributeTools kit={kit} name={NAME} as="strings" />
    </div>
  );
}
