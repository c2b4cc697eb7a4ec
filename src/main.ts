import { mount } from 'svelte';
import App from './app/App.svelte';
import './app/theme.css';
import './ui/panes.css';
import './app/embed/embed.css';

mount(App, { target: document.getElementById('app')! });

// Offline after the first visit (the build's service worker; none in development). Registered once the
// page has painted, so it never delays the first paint.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  addEventListener('load', () => {
    void import('virtual:pwa-register').then(({ registerSW }) => registerSW({ immediate: true }));
  });
}
