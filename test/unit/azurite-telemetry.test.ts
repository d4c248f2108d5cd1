import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(__dirname, '..', '..');

/** Runs a script in a process of its own, as Azurite's, so this worker keeps none of Azurite's modules; answers its JSON. */
function inAzuritesProcess(script: string): unknown {
  const run = spawnSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8' });
  expect(run.stderr).toBe('');
  return JSON.parse(run.stdout);
}

// Azurite's telemetry package is replaced at install (package.json's overrides) by an empty module: the local stack
// runs Azurite with --disableTelemetry, and the package and OpenTelemetry's SDKs under it were half of node_modules.
describe("Azurite's telemetry, not installed", () => {
  it('Azurite resolves applicationinsights to the empty stand-in, and no OpenTelemetry package is installed', () => {
    const found = inAzuritesProcess(`
      const { createRequire } = require('node:module');
      const azurite = createRequire(require.resolve('azurite/package.json'));
      const { dirname, join } = require('node:path');
      const manifest = join(dirname(azurite.resolve('applicationinsights')), 'package.json');
      const { name } = JSON.parse(require('node:fs').readFileSync(manifest, 'utf8'));
      process.stdout.write(JSON.stringify({ name, exports: Object.keys(azurite('applicationinsights')) }));
    `);
    expect(found).toEqual({ name: '@favware/skip-dependency', exports: [] });
    for (const left of ['@opentelemetry', '@azure/monitor-opentelemetry', '@azure/monitor-opentelemetry-exporter'])
      expect(existsSync(join(root, 'node_modules', left)), left).toBe(false);
    const lock = readFileSync(join(root, 'package-lock.json'), 'utf8');
    expect(lock).not.toMatch(/node_modules\/(@opentelemetry|applicationinsights\/node_modules)/);
  });

  it('Azurite loads its queue server without it, and with telemetry turned on sends nothing: its own catch says why', () => {
    const found = inAzuritesProcess(`
      const { AzuriteTelemetryClient } = require('azurite/dist/src/common/Telemetry.js');
      require('azurite/dist/src/queue/QueueServer.js');
      const logger = require('azurite/dist/src/common/Logger.js').default;
      const warned = [];
      logger.warn = (message) => warned.push(message);
      AzuriteTelemetryClient.init('', true, { inMemoryPersistence: () => true });
      process.stdout.write(JSON.stringify({ warned, clients: [AzuriteTelemetryClient.eventClient, AzuriteTelemetryClient.requestClient].filter(Boolean).length }));
    `);
    expect(found).toEqual({ warned: [expect.stringMatching(/^Fail to init telemetry, error: .*setup is not a function/)], clients: 0 });
  });
});
