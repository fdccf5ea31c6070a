import { mount } from 'svelte';
import App from './App.svelte';
import './app.css';
import { startIsolation } from '../ui/run/isolation.svelte.ts';
import { startOffline } from './update.svelte.ts';
import { current } from '../ui/run/current-run.svelte.ts';
import { resultsReading } from '../story/step-answers-loader.svelte.ts';

void startIsolation();
startOffline();

// "?notes": the speaker notes window for a second screen (src/app/ui/present/notes.svelte.ts),
// loaded only there, with the notes' words.
const target = document.getElementById('app')!;
if (new URLSearchParams(location.search).has('notes')) void import('./present/NotesWindow.svelte').then(({ default: NotesWindow }) => mount(NotesWindow, { target }));
else {
  // A reader with results opens a stage page with this machine's figures: the statistics
  // that read them load first (results-reading.svelte.ts). A first visit has none to wait for.
  const reading = current.results ? resultsReading.load().catch(() => undefined) : Promise.resolve();
  void reading.then(() => mount(App, { target }));
}
