import { mount } from 'svelte';
import App from './App.svelte';
import './app.css';
import { startIsolation } from '../isolation.svelte.ts';
import { startOffline } from '../update.svelte.ts';

void startIsolation();
startOffline();

// "?notes": the speaker notes window for a second screen (src/app/present/notes.svelte.ts),
// loaded only there, with the notes' words.
const target = document.getElementById('app')!;
if (new URLSearchParams(location.search).has('notes')) void import('../../present/NotesWindow.svelte').then(({ default: NotesWindow }) => mount(NotesWindow, { target }));
else mount(App, { target });
