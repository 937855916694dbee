/**
 * Bidirectional embedding, override and isolate controls (U+202A..U+202E, U+2066..U+2069): they make text display
 * in another order than it is stored ("Trojan Source"), so a payee or a rule could read as something it is not.
 * Typed text refuses them; imported text has them taken out.
 */
export const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/;
const BIDI_CONTROLS_ALL = /[\u202a-\u202e\u2066-\u2069]/g;

export function hasBidiControls(value: string): boolean {
  return BIDI_CONTROLS.test(value);
}

/** `value` without its bidirectional controls, and how many were taken out. */
export function stripBidiControls(value: string): { text: string; removed: number } {
  let removed = 0;
  const text = value.replace(BIDI_CONTROLS_ALL, () => {
    removed += 1;
    return '';
  });
  return { text, removed };
}
