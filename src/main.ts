import { mount } from 'svelte';
import App from './app/App.svelte';
import './app/theme.css';
import './ui/panes.css';
import './app/embed/embed.css';
import { registerWhenQuiet } from './app/register-when-quiet';
import { foregroundWork } from './state/foreground-work';

mount(App, { target: document.getElementById('app')! });

// Offline after the first visit (the build's service worker; none in development). Registered once the
// page has loaded and then gone five seconds without an import being read, so its install (the whole
// build fetched, stored and compiled) never competes with the first paint or with a file dropped at once.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  addEventListener('load', () => {
    void registerWhenQuiet(foregroundWork, () => {
      void import('virtual:pwa-register').then(({ registerSW }) => registerSW({ immediate: true }));
    });
  });
}
