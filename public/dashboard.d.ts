// The dashboard's globals: Chart.js, which admin.html loads before the modules as a classic script.
import type { Chart as ChartJs } from 'chart.js';

declare global {
  const Chart: typeof ChartJs;
}
