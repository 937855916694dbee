import { useEffect, useRef, useState } from 'react';
import { useUndoRedo } from '../lib/undo';
import { Notice, type NoticeMessage } from './Notice';

/** True for keys typed into a field, where Ctrl+Z belongs to the field's own text. */
function inTextField(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

/** Ctrl+Z (Cmd+Z) undoes the latest change and Shift+Ctrl+Z redoes it, anywhere outside a text field. */
export function UndoShortcuts() {
  const { run } = useUndoRedo();
  const [notice, setNotice] = useState<NoticeMessage | null>(null);
  // Presses made while one is still running wait their turn: each picks its target after the previous is done.
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.key.toLowerCase() !== 'z') return;
      if (inTextField(event.target)) return;
      event.preventDefault();
      const pick = event.shiftKey ? 'redo' : 'undo';
      queue.current = queue.current
        .then(() => run(pick))
        .then(({ text, ok }) =>
          setNotice({ text, severity: ok ? 'success' : 'error', id: Date.now() + Math.random(), offerUndo: false }),
        );
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [run]);
  return <Notice notice={notice} onClose={() => setNotice(null)} />;
}
