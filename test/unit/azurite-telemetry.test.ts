import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..');

// Azurite, started through azurite-process.cjs with --disableTelemetry, runs without its telemetry package: loaded
// in a process of its own, as Azurite's, so this worker keeps none of Azurite's modules.
describe("Azurite's telemetry, left out", () => {
  it('loads none of applicationinsights or OpenTelemetry, and a read of it fails naming the flag', () => {
    const script = `
      const { leaveOutTelemetry } = require('./host/local/azurite-process.cjs');
      leaveOutTelemetry(require.resolve('azurite/package.json'));
      const { AzuriteTelemetryClient } = require('azurite/dist/src/common/Telemetry.js');
      require('azurite/dist/src/queue/QueueServer.js');
      const loaded = Object.keys(require.cache).filter((file) => /node_modules[\\\\/](applicationinsights|@opentelemetry|@azure[\\\\/]monitor-opentelemetry)/.test(file));
      let called = 'no error';
      try { AzuriteTelemetryClient.appInsights.setup('InstrumentationKey=x'); } catch (error) { called = error.message; }
      process.stdout.write(JSON.stringify({ loaded, left: require.resolve('applicationinsights', { paths: [require.resolve('azurite/package.json')] }), called }));
    `;
    const run = spawnSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const { loaded, left, called } = JSON.parse(run.stdout) as { loaded: string[]; left: string; called: string };
    expect(loaded).toEqual([left]);
    expect(called).toBe('Azurite read applicationinsights.setup with --disableTelemetry; azurite-process.cjs left it out');
  });
});
