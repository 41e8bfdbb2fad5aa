import { afterAll } from 'vitest';
import { closeLeftovers } from './app';

// Registered before each server test file: runs after the file's own hooks.
afterAll(closeLeftovers);
