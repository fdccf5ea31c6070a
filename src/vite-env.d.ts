/// <reference types="svelte" />
/// <reference types="vite/client" />

/** The build's version (vite.config.ts), shown in the footer and by the update notice. */
declare const __APP_VERSION__: string;
