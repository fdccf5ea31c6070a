import { mount } from 'svelte';
import App from './App.svelte';
import NotesWindow from '../../present/NotesWindow.svelte';
import './app.css';
import { startIsolation } from '../isolation.svelte.ts';
import { startOffline } from '../update.svelte.ts';

void startIsolation();
startOffline();

// "?notes": the speaker notes window for a second screen (src/app/present/notes.svelte.ts).
const notesWindow = new URLSearchParams(location.search).has('notes');
mount(notesWindow ? NotesWindow : App, { target: document.getElementById('app')! });
