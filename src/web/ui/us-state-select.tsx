import type { ComponentProps } from 'react';
import { US_STATES } from '../../common/constants';
import { NativeSelect } from './form-controls';

/** The 50 US states, with an empty first choice labelled `placeholder`. */
export function UsStateSelect({ placeholder, ...props }: ComponentProps<'select'> & { placeholder: string }) {
  return (
    <NativeSelect {...props}>
      <option value="">{placeholder}</option>
      {US_STATES.map((s) => (
        <option key={s} value={s}>
          {s}
        </option>
      ))}
    </NativeSelect>
  );
}
