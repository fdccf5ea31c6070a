import { mount } from 'svelte';
import App from './App.svelte';
import './app.css';
import { startIsolation } from '../isolation.svelte.ts';

void startIsolation();

mount(App, { target: document.getElementById('app')! });
