/**
 * The Muster dashboard: one filter bar, nine pages in the menu and the pages of a player, a
 * faction and an event behind every name (app.tsx's PAGES), everything in the URL.
 */
import { render } from 'preact';
import { App } from './app.tsx';
import './styles.css';

render(<App />, document.getElementById('app')!);
