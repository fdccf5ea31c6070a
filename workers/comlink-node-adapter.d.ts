// comlink ships the Node adapter's types as node-adapter.d.ts beside node-adapter.mjs,
// where TypeScript does not look for an .mjs file's types; point it at them.
declare module 'comlink/dist/esm/node-adapter.mjs' {
  export { default } from 'comlink/dist/esm/node-adapter';
}
