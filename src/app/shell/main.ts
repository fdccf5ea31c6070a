import { mount } from 'svelte';
import App from './App.svelte';
import './app.css';
import { startIsolation } from '../ui/run/isolation.svelte.ts';
import { startOffline } from './update.svelte.ts';
import { startClassProbe } from '../class/server.svelte.ts';
import { startStepAnswers } from '../story/step-answers-loader.svelte.ts';

// The app's services, each started here once: cross-origin isolation, the offline copy
// and its update check, and the class server's probe (which first takes the teacher's key
// out of the address bar).
void startIsolation();
startOffline();
startClassProbe();

// "?notes": the speaker notes window for a second screen (src/app/shell/present/notes.svelte.ts),
// loaded only there, with the notes' words.
const target = document.getElementById('app')!;
if (new URLSearchParams(location.search).has('notes')) void import('./present/NotesWindow.svelte').then(({ default: NotesWindow }) => mount(NotesWindow, { target }));
// A reader with results opens a stage page with this machine's figures: the statistics
// that read them load first. A first visit has none to wait for.
else void startStepAnswers().then(() => mount(App, { target }));
