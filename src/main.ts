import { mount } from 'svelte';
import App from './app/App.svelte';
import './app/theme.css';
import './ui/panes.css';
import './app/embed/embed.css';

mount(App, { target: document.getElementById('app')! });
