/** The console's entry: its styles, and the app mounted into the page. */
import 'uplot/dist/uPlot.min.css';
import './style.css';
import { render } from 'preact';
import { App } from './app';

render(<App />, document.getElementById('app')!);
