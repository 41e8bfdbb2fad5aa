import { afterAll } from 'vitest';
import { closeLeftovers } from './helpers';

// Registered before each server test file: runs after the file's own hooks.
afterAll(closeLeftovers);
