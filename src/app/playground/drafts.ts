// Drafts live in this browser's localStorage, one entry per stage (by stage id, so a
// renumbered lesson keeps them), holding only the files that differ from the stage.
// Storage can be full or switched off: saving then says so instead of failing quietly,
// and the draft stays in the editor.

const PREFIX = 'blake3-lab:playground:';

export function readDraft(stageId: string): Record<string, string> | null {
  let text: string | null;
  try {
    text = localStorage.getItem(PREFIX + stageId);
  } catch {
    return null;
  }
  if (text === null) return null;
  try {
    const data: unknown = JSON.parse(text);
    if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
    const files = Object.entries(data).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
    return files.length > 0 ? Object.fromEntries(files) : null;
  } catch {
    return null;
  }
}

/** Saves the changed files (none: forgets the draft); returns why it could not, or null. */
export function writeDraft(stageId: string, changed: Record<string, string>): string | null {
  try {
    if (Object.keys(changed).length === 0) localStorage.removeItem(PREFIX + stageId);
    else localStorage.setItem(PREFIX + stageId, JSON.stringify(changed));
    return null;
  } catch (error) {
    return `Your draft could not be saved in this browser (${error instanceof Error ? error.message : String(error)}); it stays here until you close the tab.`;
  }
}
