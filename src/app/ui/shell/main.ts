import { mount } from 'svelte';
import App from './App.svelte';
import NotesWindow from '../../present/NotesWindow.svelte';
import './app.css';
import { startIsolation } from '../isolation.svelte.ts';
import { startOffline } from '../update.svelte.ts';

void startIsolation();
startOffline();

// A first visit straight to a stage page (the stage pages load apart from the front page)
// waits for that page's code before the first paint, so nothing moves when it arrives.
if (location.hash.startsWith('#/stage/')) await import('../../story/StagePage.svelte').catch(() => undefined);

// "?notes": the speaker notes window for a second screen (src/app/present/notes.svelte.ts).
const notesWindow = new URLSearchParams(location.search).has('notes');
mount(notesWindow ? NotesWindow : App, { target: document.getElementById('app')! });
