import type { InputHTMLAttributes } from 'react';

interface GateFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange'> {
  label: string;
  onChange(value: string): void;
}

/** A labelled input of the gate screens (plain HTML: the sign-in page loads no UI library). */
export function GateField({ label, onChange, required, ...input }: GateFieldProps) {
  return (
    <label className="gate-field">
      <span>
        {label}
        {required && (
          <span className="gate-required" aria-hidden="true">
            *
          </span>
        )}
      </span>
      <input {...input} required={required} onChange={(e) => onChange(e.target.value)} />
    </label>
  );
}
