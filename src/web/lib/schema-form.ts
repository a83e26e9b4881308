// Forms checked with the shared zod schemas (the server checks the same ones). The inputs are
// plain uncontrolled elements named after the schema's fields; the schema module is loaded when
// the form is first checked, so a page with a form does not load zod before anyone types.
import { useCallback, useRef, useState, type FormEvent } from 'react';
import type { z } from 'zod';

export type FieldErrors = Record<string, string | undefined>;

export interface SchemaForm<T> {
  /** Props for the <form> element. */
  props: { onSubmit: (e: FormEvent<HTMLFormElement>) => void; onChange: () => void; noValidate: true; ref: React.RefObject<HTMLFormElement | null> };
  errors: FieldErrors;
  /** Marks a field wrong with a message (e.g. an answer from the server), and focuses it. */
  setError(field: string, message: string): void;
  /** The current value of a field. */
  value(field: string): string;
  reset(): void;
  submitted?: T;
}

/** The values of a form as the schema expects them: text fields as strings, checkboxes as booleans. */
function valuesOf(form: HTMLFormElement): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const el of Array.from(form.elements) as HTMLInputElement[]) {
    if (!el.name || el.type === 'file' || el.type === 'submit') continue;
    values[el.name] = el.type === 'checkbox' ? el.checked : el.value;
  }
  return values;
}

function errorsOf(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? '');
    errors[field] ??= issue.message;
  }
  return errors;
}

export function useSchemaForm<S extends z.ZodType>(
  loadSchema: () => Promise<S>,
  onValid: (values: z.output<S>) => void,
): SchemaForm<z.output<S>> {
  const ref = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const checkedOnce = useRef(false);
  const latest = useRef({ loadSchema, onValid });
  latest.current = { loadSchema, onValid };

  const check = useCallback(async (): Promise<z.output<S> | null> => {
    const form = ref.current;
    if (!form) return null;
    const schema = await latest.current.loadSchema();
    const result = schema.safeParse(valuesOf(form));
    if (result.success) {
      setErrors({});
      return result.data;
    }
    setErrors(errorsOf(result.error));
    return null;
  }, []);

  const onSubmit = useCallback(
    (e: FormEvent<HTMLFormElement>) => {
      e.preventDefault();
      checkedOnce.current = true;
      void check().then((values) => {
        if (values) return latest.current.onValid(values);
        // Focus the first field that is wrong (once the messages are on screen).
        requestAnimationFrame(() => ref.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      });
    },
    [check],
  );

  // After a first submit, messages follow what is typed.
  const onChange = useCallback(() => {
    if (checkedOnce.current) void check();
  }, [check]);

  return {
    props: { onSubmit, onChange, noValidate: true, ref },
    errors,
    setError(field, message) {
      setErrors((prev) => ({ ...prev, [field]: message }));
      ref.current?.querySelector<HTMLElement>(`[name="${field}"]`)?.focus();
    },
    value: (field) => (ref.current?.elements.namedItem(field) as HTMLInputElement | null)?.value ?? '',
    reset() {
      ref.current?.reset();
      checkedOnce.current = false;
      setErrors({});
    },
  };
}
