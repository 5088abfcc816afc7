#!/usr/bin/env node
// The `dpg` command: runs the TypeScript CLI through tsx's loader (no build step needed).
import { register } from 'tsx/esm/api';
import { fileURLToPath } from 'node:url';

register();
const { dpg } = await import(fileURLToPath(new URL('../src/cli/main.ts', import.meta.url)));
process.exitCode = await dpg(process.argv.slice(2));
