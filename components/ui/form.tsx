import type { ButtonHTMLAttributes, InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';

// The form primitives every page uses: a labelled field, the text input, text area and select in one
// look, and the buttons. Each takes the element's own props; `className` adds to the base classes.

const control = 'min-w-0 rounded-md border border-slate-700 bg-slate-900 px-3 py-2 text-base';

/** A label above its control (the label wraps it, so no id is needed); `hint` is a line below. */
export function Field({
  label,
  children,
  hint,
  htmlFor,
  className = '',
}: {
  label: ReactNode;
  children: ReactNode;
  hint?: ReactNode;
  htmlFor?: string;
  className?: string;
}) {
  return (
    <label className={`flex flex-col gap-1 text-sm ${className}`} htmlFor={htmlFor}>
      {label}
      {children}
      {hint ? <span className="text-xs text-slate-400">{hint}</span> : null}
    </label>
  );
}

/** A check box with its label on the right. */
export function CheckField({ label, className = '', ...props }: { label: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <label className={`flex items-center gap-2 text-sm ${className}`}>
      <input type="checkbox" {...props} /> {label}
    </label>
  );
}

export function Input({ className = '', ...props }: InputHTMLAttributes<HTMLInputElement>) {
  return <input className={`${control} ${className}`} {...props} />;
}

/** An amount of CLAW: a number to the micro-CLAW (6 decimals), at least one micro-CLAW unless `min` says. */
export function ClawInput(props: Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'step' | 'inputMode'>) {
  return <Input type="number" min="0.000001" step="0.000001" inputMode="decimal" {...props} />;
}

export function TextArea({ className = '', ...props }: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea className={`${control} ${className}`} {...props} />;
}

/**
 * A select over `options` (values shown as they are unless `labels` names them), after an optional
 * `empty` choice whose value is ''; or over its own `<option>` children.
 */
export function Select<T extends string | number>({
  options,
  labels,
  empty,
  className = '',
  children,
  ...props
}: {
  options?: readonly T[];
  labels?: Partial<Record<T, string>> | ((value: T) => string);
  empty?: string;
} & SelectHTMLAttributes<HTMLSelectElement>) {
  const label = (value: T) => (typeof labels === 'function' ? labels(value) : (labels?.[value] ?? String(value)));
  return (
    <select className={`${control} ${className}`} {...props}>
      {empty !== undefined ? <option value="">{empty}</option> : null}
      {options?.map((value) => (
        <option key={value} value={value}>
          {label(value)}
        </option>
      ))}
      {children}
    </select>
  );
}

const VARIANTS = {
  primary: 'bg-emerald-500 font-medium text-slate-950 hover:bg-emerald-400 disabled:opacity-60',
  secondary: 'border border-slate-700 hover:bg-slate-800 disabled:opacity-40',
  confirm: 'border border-emerald-700 hover:bg-emerald-950 disabled:opacity-50',
  warning: 'border border-amber-700 hover:bg-amber-950 disabled:opacity-50',
  danger: 'border border-rose-700 text-rose-200 hover:bg-rose-950 disabled:opacity-50',
} as const;
const SIZES = { md: 'px-4 py-2', sm: 'px-3 py-1.5 text-sm', xs: 'px-2 py-1 text-sm' } as const;

/** A button (type="button" unless told): primary for the form's action, the outlined ones beside it. */
export function Button({
  variant = 'primary',
  size = 'md',
  type = 'button',
  className = '',
  ...props
}: {
  variant?: keyof typeof VARIANTS;
  size?: keyof typeof SIZES;
} & ButtonHTMLAttributes<HTMLButtonElement>) {
  return <button type={type} className={`rounded-md ${SIZES[size]} ${VARIANTS[variant]} ${className}`} {...props} />;
}

/** A group of check boxes over `options`, kept in `value` (a list of the ticked ones). */
export function CheckList<T extends string>({
  legend,
  options,
  value,
  onChange,
  note,
}: {
  legend: string;
  options: readonly T[];
  value: T[];
  onChange: (value: T[]) => void;
  note?: (option: T) => ReactNode;
}) {
  return (
    <fieldset className="rounded-md border border-slate-800 p-3">
      <legend className="px-1 text-sm text-slate-300">{legend}</legend>
      <div className="grid grid-cols-1 gap-1 text-sm sm:grid-cols-3">
        {options.map((option) => (
          <label key={option} className="flex items-center gap-2">
            <input
              type="checkbox"
              checked={value.includes(option)}
              onChange={(event) => onChange(event.target.checked ? [...value, option] : value.filter((item) => item !== option))}
            />
            <span className="font-mono text-xs">{option}</span>
            {note?.(option)}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
