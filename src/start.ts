/** The server proper, started by server.ts (from source) or the bundle's entry: reads the configuration once from the environment and serves. */
import { ConfigError, readConfig } from './config.js';
import { PlaneListenError } from './planes/plane.js';
import { serve } from './serve.js';
import { SeedError } from './seed/apply.js';

/** Resolves once every plane listens. */
export async function start(): Promise<void> {
  try {
    await serve(readConfig());
  } catch (error) {
    if (error instanceof ConfigError || error instanceof SeedError || error instanceof PlaneListenError) {
      process.stderr.write(`edgeplane: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}
