// Keyboard control of the story: Left/Right step, Home/End jump to the first and last
// stage, "c" switches a stage between its story and its code, "p" toggles presenter
// mode, "n" shows its speaker notes, Escape leaves it. A teacher at a projector drives
// the whole lesson from the keyboard (or a presentation clicker, which sends arrows).
//
// The decision is a pure function of the key and where focus is, so it can be tested in
// Node; `installKeyboard` only wires it to the document.

export type KeyAction = 'prev' | 'next' | 'first' | 'last' | 'toggle-code' | 'toggle-presenter' | 'exit-presenter' | 'toggle-notes';

export interface KeyContext {
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  /** Focus is in a text field, a select, an editable element or the code editor. */
  typing: boolean;
  /** The current page is part of the story (intro, a stage, "how we measure"). */
  onStory: boolean;
  presenter: boolean;
}

export function keyAction(context: KeyContext): KeyAction | null {
  // Alt+Left is the browser's Back, Ctrl+Home scrolls: never steal modified keys.
  if (context.altKey || context.ctrlKey || context.metaKey || context.typing) return null;
  switch (context.key) {
    case 'p':
    case 'P':
      return context.shiftKey ? null : 'toggle-presenter';
    case 'Escape':
      return context.presenter ? 'exit-presenter' : null;
    case 'n':
    case 'N':
      return context.presenter && !context.shiftKey ? 'toggle-notes' : null;
  }
  if (!context.onStory || context.shiftKey) return null;
  switch (context.key) {
    case 'ArrowLeft':
      return 'prev';
    case 'ArrowRight':
      return 'next';
    // Presentation clickers send PageUp/PageDown; outside presenter mode they scroll.
    case 'PageUp':
      return context.presenter ? 'prev' : null;
    case 'PageDown':
      return context.presenter ? 'next' : null;
    case 'Home':
      return 'first';
    case 'End':
      return 'last';
    case 'c':
    case 'C':
      return 'toggle-code';
    default:
      return null;
  }
}

/** True when keys typed now belong to a form field or the code editor, not to us. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target.closest('input, textarea, select, [contenteditable=""], [contenteditable="true"]')) return true;
  // Monaco keeps focus in a hidden textarea, but also in its own scrollable elements.
  return target.closest('.monaco-editor, [role="slider"], [role="listbox"], [role="tablist"]') !== null;
}

/** Listens on the document and calls `run` for each action; returns the remover. */
export function installKeyboard(
  state: () => { onStory: boolean; presenter: boolean },
  run: (action: KeyAction) => void,
): () => void {
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.defaultPrevented || event.isComposing) return;
    const action = keyAction({
      key: event.key,
      altKey: event.altKey,
      ctrlKey: event.ctrlKey,
      metaKey: event.metaKey,
      shiftKey: event.shiftKey,
      typing: isTypingTarget(event.target),
      ...state(),
    });
    if (action === null) return;
    event.preventDefault();
    run(action);
  };
  document.addEventListener('keydown', onKeyDown);
  return () => document.removeEventListener('keydown', onKeyDown);
}
