import type { JSX } from 'preact';

export interface FieldProps {
  name: string;
  label: string;
  hint?: string;
  error?: string;
  /** The control, given its id and the ARIA that ties the hint and error to it. */
  children: (aria: Record<string, unknown>) => JSX.Element;
}

/** A labelled field whose hint and error are described-by, not part of its name. */
export function Field({ name, label, hint, error, children }: FieldProps) {
  const described = [hint ? `${name}-hint` : '', error ? `${name}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class="field">
      <label for={`field-${name}`}>{label}</label>
      {children({
        id: `field-${name}`,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': described || undefined,
      })}
      {hint ? (
        <span id={`${name}-hint`} class="hint">
          {hint}
        </span>
      ) : null}
      {error ? (
        <span id={`${name}-error`} class="error field-error">
          {error}
        </span>
      ) : null}
    </div>
  );
}
