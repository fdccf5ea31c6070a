// Monaco ships no types for the module that starts its TypeScript service; the one
// function the playground calls (src/app/playground/compiler.ts) is declared here.
declare module 'monaco-editor/languages/features/typescript/tsMode.js' {
  import type { typescriptDefaults } from 'monaco-editor/languages/features/typescript/register';
  export function setupTypeScript(defaults: typeof typescriptDefaults): unknown;
}
