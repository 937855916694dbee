import {
  useRef,
  useState,
  type ChangeEvent,
  type KeyboardEvent,
  type ReactNode,
  type SelectHTMLAttributes,
} from 'react';

type NativeSelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange' | 'onKeyDown' | 'onBlur'>;

interface DraftSelectProps extends NativeSelectProps {
  /** The stored value. */
  value: string;
  /** Saves a chosen value (only ever one that differs from the stored value). */
  onCommit: (value: string) => void;
  children: ReactNode;
}

const CONFIRM = 'Enter';
const REVERT = 'Escape';

/**
 * A native select that saves a choice, not every step towards it: on a closed select the arrow keys (and typed
 * letters) change the shown option without saving; Enter or leaving the field saves it, Escape puts the stored
 * value back. A pick from the open list (pointer, or Enter in the browser's popup) saves at once, as there is
 * no stepping through options to wait for.
 */
export function DraftSelect({ value, onCommit, children, ...rest }: DraftSelectProps) {
  const [draft, setDraft] = useState<string | null>(null);
  // Set by a key pressed on the closed select; the change event that key causes follows in the same task.
  const keyed = useRef(false);

  function settle() {
    const chosen = draft;
    setDraft(null);
    if (chosen !== null && chosen !== value) onCommit(chosen);
  }

  function onKeyDown(event: KeyboardEvent<HTMLSelectElement>) {
    if (event.key === CONFIRM && draft !== null) {
      event.preventDefault();
      settle();
    } else if (event.key === REVERT && draft !== null) {
      event.preventDefault();
      event.stopPropagation();
      setDraft(null);
    } else {
      keyed.current = true;
    }
  }

  function onChange(event: ChangeEvent<HTMLSelectElement>) {
    const next = event.target.value;
    const fromKey = keyed.current;
    keyed.current = false;
    if (fromKey) {
      setDraft(next === value ? null : next);
      return;
    }
    setDraft(null);
    if (next !== value) onCommit(next);
  }

  return (
    <select
      {...rest}
      value={draft ?? value}
      onChange={onChange}
      onKeyDown={onKeyDown}
      onKeyUp={() => (keyed.current = false)}
      onPointerDown={() => (keyed.current = false)}
      onBlur={settle}
    >
      {children}
    </select>
  );
}
