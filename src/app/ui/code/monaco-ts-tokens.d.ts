// Monaco ships no types for its TypeScript colouring rules; src/app/ui/code/monaco.ts reuses them
// for the code views' own language, so their shape is declared here.
declare module 'monaco-editor/languages/definitions/typescript/typescript.js' {
  import type { languages } from 'monaco-editor/editor/editor.api';
  export const conf: languages.LanguageConfiguration;
  export const language: languages.IMonarchLanguage;
}
