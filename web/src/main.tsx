/** The Muster dashboard: one filter bar, seven pages, everything in the URL. */
import { render } from 'preact';
import { App } from './app.tsx';
import './styles.css';

render(<App />, document.getElementById('app')!);
